import { describe, expect, test } from "vitest";
import { batchAnswer, readBatchFile } from "./batch.js";

const msh = (id: string) => `MSH|^~\\&|EHR|CLINIC|CORE|FAC|20261127||ADT^A04^ADT_A01|${id}|P|2.5.1`;

describe("HL7 batches", () => {
  test("a file of two batches is split into its messages, each with its own segments", () => {
    const text = [
      "FHS|^~\\&|EHR|CLINIC|CORE|FAC|20261127||||F1",
      "BHS|^~\\&|EHR|CLINIC|CORE|FAC|20261127||||B1",
      msh("M1"),
      "PID|1||1^^^H^MR",
      msh("M2"),
      "PID|1||2^^^H^MR",
      "BTS|2",
      "BHS|^~\\&|EHR|CLINIC|CORE|FAC|20261127||||B2",
      msh("M3"),
      "BTS|1",
      "FTS|2",
      "",
    ].join("\r");
    const file = readBatchFile(Buffer.from(text, "latin1"))!;
    expect(file.header).toMatch(/^FHS\|/);
    expect(file.batches.map((b) => b.messages.map((m) => m.toString("latin1").trim()))).toEqual([
      [`${msh("M1")}\rPID|1||1^^^H^MR`, `${msh("M2")}\rPID|1||2^^^H^MR`],
      [msh("M3")],
    ]);
  });

  test("a frame of one message is not a batch", () => {
    expect(readBatchFile(Buffer.from(`${msh("M1")}\rPID|1`))).toBeUndefined();
  });

  test("the answer swaps sender and receiver, names the file and batch answered, and counts", () => {
    const file = readBatchFile(
      Buffer.from(
        [
          "FHS|^~\\&|EHR|CLINIC|CORE|FAC|20261127||||F\\F\\1",
          "BHS|^~\\&|EHR|CLINIC|CORE|FAC|20261127||||B1\u000b",
          msh("M1"),
          "BTS|1",
          "FTS|1",
        ].join("\r"),
      ),
    )!;
    const answer = batchAnswer(file, [["MSH|^~\\&|ACK1\rMSA|AA|M1\r"]]).split("\r");
    expect(answer[0]).toMatch(/^FHS\|\^~\\&\|CORE\|FAC\|EHR\|CLINIC\|\d{14}\|\|\|\|A[0-9a-f]{18}\|F\\F\\1$/);
    expect(answer[1]).toMatch(
      /^BHS\|\^~\\&\|CORE\|FAC\|EHR\|CLINIC\|\d{14}\|\|\|\|A[0-9a-f]{18}\|B1\\X0B\\$/,
    );
    expect(answer.slice(2)).toEqual(["MSH|^~\\&|ACK1", "MSA|AA|M1", "BTS|1", "FTS|1", ""]);
  });
});

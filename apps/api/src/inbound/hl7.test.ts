import { describe, expect, test } from "vitest";
import { buildAck, escapeValue, headerOf, headerOfBytes } from "./ack.js";
import { fieldValue, Hl7ReadError, parseMessage, repetitions } from "./hl7.js";

const MSH = "MSH|^~\\&|EPIC|NORTH^1.2.3^ISO|CORECARE|FAC|20261127||ADT^A08^ADT_A01|X\\F\\1|P|2.5.1";

describe("reading an inbound message", () => {
  test("reads every repetition and component, unescaped", () => {
    const m = parseMessage(
      `${MSH}\rPID|1||42^^^H^MR||O\\S\\Brien^Ann||||||1 A St\\T\\B^^Town^TX^75001||^PRN^PH^^^214^5550000~^NET^Internet^a@b.test`,
    );
    expect(fieldValue(m, "MSH", 10)).toBe("X|1");
    expect(repetitions(m, "MSH", 4)).toEqual([["NORTH", "1.2.3", "ISO"]]);
    expect(repetitions(m, "PID", 5)).toEqual([["O^Brien", "Ann"]]);
    expect(repetitions(m, "PID", 11)[0]?.[0]).toBe("1 A St&B");
    expect(repetitions(m, "PID", 13).map((r) => r[3])).toEqual(["", "a@b.test"]);
    expect(repetitions(m, "PID", 30)).toEqual([]);
    expect(repetitions(m, "ZZZ", 1)).toEqual([]);
  });

  test("honours the delimiters MSH-2 declares", () => {
    const m = parseMessage("MSH#$*!%#A#B#C#D#2026##ADT$A04#C9#P#2.5\nPID#1##7$$$$MR#!F!$Kay");
    expect(repetitions(m, "MSH", 9)[0]).toEqual(["ADT", "A04"]);
    expect(repetitions(m, "PID", 3)[0]?.[4]).toBe("MR");
    // The escape character is !, so !F! is the field separator #.
    expect(repetitions(m, "PID", 4)[0]).toEqual(["#", "Kay"]);
  });

  test("escapes are undone exactly: \\X0D\\ is a CR, \\Xhh\\ read in UTF-8, highlighting dropped", () => {
    const m = parseMessage(
      `${MSH}\rPID|1||42^^^H^MR||Doe\\X0D\\Smith^Ann\\.br\\Lou||||||Caf\\XC3A9\\ \\H\\Noir\\N\\`,
    );
    expect(repetitions(m, "PID", 5)[0]).toEqual(["Doe\rSmith", "Ann\nLou"]);
    expect(fieldValue(m, "PID", 11)).toBe("Café Noir");
  });

  test.each([
    ["no MSH", "PID|1", "MSH"],
    ["repeated delimiters", "MSH|^^^^|A", "MSH-2"],
    ["letters as delimiters", "MSH|ABCD|A", "MSH-2"],
    ["too few delimiters", "MSH|^~", "MSH-2"],
    ["a broken segment", `${MSH}\rP@D|1`, "segment 2"],
    ["a segment glued to its name", `${MSH}\rPIDX|1`, "segment 2"],
  ])("refuses %s naming %s", (_, text, location) => {
    let error: unknown;
    try {
      parseMessage(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Hl7ReadError);
    expect((error as Hl7ReadError).location).toBe(location);
  });

  test("the header of raw bytes is read when the message as a whole cannot be", () => {
    const broken = Buffer.concat([Buffer.from(`\u000b${MSH}\rPID|1||`), Buffer.from([0xff, 0xfe])]);
    expect(headerOfBytes(broken)).toMatchObject({ controlId: "X|1", sendingApplication: ["EPIC"] });
    expect(headerOfBytes(Buffer.from("garbage")).controlId).toBe("");
  });
});

describe("buildAck", () => {
  test("swaps sender and receiver, echoes the control id escaped, and names the field in ERR", () => {
    const header = headerOf(parseMessage(MSH));
    const ack = buildAck(header, {
      code: "AE",
      text: "PID-11.4: Invalid option",
      error: { location: "PID-11.4", code: "dataType" },
    });
    const [msh, msa, err] = ack.split("\r");
    expect(msh).toMatch(
      /^MSH\|\^~\\&\|CORECARE\|FAC\|EPIC\|NORTH\^1\.2\.3\^ISO\|\d{14}\|\|ACK\^A08\^ACK\|A[0-9a-f]{18}\|P\|2\.5\.1$/,
    );
    expect(msa).toBe("MSA|AE|X\\F\\1|PID-11.4: Invalid option");
    expect(err).toBe("ERR||PID^1^11^1^4|102^Data type error^HL70357|E||||PID-11.4: Invalid option");
    expect(ack.endsWith("\r")).toBe(true);
  });

  test("escapes every delimiter of a value, and every control character as \\Xhh\\", () => {
    expect(escapeValue("a|b^c~d\\e&f\rg")).toBe("a\\F\\b\\S\\c\\R\\d\\E\\e\\T\\f\\X0D\\g");
    expect(escapeValue("\u000bx\u001c\u0000")).toBe("\\X0B\\x\\X1C\\\\X00\\");
  });

  test("never echoes an MLLP block character, whichever field it came in", () => {
    const header = {
      sendingApplication: ["EHR\u000b"],
      sendingFacility: ["F\u001c"],
      receivingApplication: ["\u000bCORE"],
      receivingFacility: ["FAC\u001c\r"],
      triggerEvent: "A04\u000b",
      controlId: "C1\u000b\u001c\r",
      processingId: "P\u000b",
      version: "2.5.1\u001c",
    };
    const ack = buildAck(header, { code: "AA", text: "ok\u000b" });
    expect(ack.includes("\u000b") || ack.includes("\u001c")).toBe(false);
    expect(ack.split("\r").filter((s) => s !== "")).toHaveLength(2);
    expect(ack).toContain("MSA|AA|C1\\X0B\\\\X1C\\\\X0D\\|");
  });
});

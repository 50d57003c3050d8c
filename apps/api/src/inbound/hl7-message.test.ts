import { describe, expect, test } from "vitest";
import { buildAck, escapeValue, headerOf, Hl7Message, Hl7ReadError } from "./hl7-message.js";

const MSH = "MSH|^~\\&|EPIC|NORTH^1.2.3^ISO|CORECARE|FAC|20261127||ADT^A08^ADT_A01|X\\F\\1|P|2.5.1";

describe("Hl7Message", () => {
  test("reads every repetition and component, unescaped", () => {
    const m = Hl7Message.parse(
      `${MSH}\rPID|1||42^^^H^MR||O\\S\\Brien^Ann||||||1 A St\\T\\B^^Town^TX^75001||^PRN^PH^^^214^5550000~^NET^Internet^a@b.test`,
    );
    expect(m.value("MSH", 10)).toBe("X|1");
    expect(m.repetitions("MSH", 4)).toEqual([["NORTH", "1.2.3", "ISO"]]);
    expect(m.repetitions("PID", 5)).toEqual([["O^Brien", "Ann"]]);
    expect(m.repetitions("PID", 11)[0]?.[0]).toBe("1 A St&B");
    expect(m.repetitions("PID", 13).map((r) => r[3])).toEqual(["", "a@b.test"]);
  });

  test("honours the delimiters MSH-2 declares", () => {
    const m = Hl7Message.parse("MSH#$*!%#A#B#C#D#2026##ADT$A04#C9#P#2.5\nPID#1##7$$$$MR");
    expect(m.repetitions("MSH", 9)[0]).toEqual(["ADT", "A04"]);
    expect(m.repetitions("PID", 3)[0]?.[4]).toBe("MR");
  });

  test.each([
    ["no MSH", "PID|1", "MSH"],
    ["repeated delimiters", "MSH|^^^^|A", "MSH-2"],
    ["letters as delimiters", "MSH|ABCD|A", "MSH-2"],
    ["a broken segment", `${MSH}\rP@D|1`, "segment 2"],
    ["a segment glued to its name", `${MSH}\rPIDX|1`, "segment 2"],
  ])("refuses %s naming %s", (_, text, location) => {
    let error: unknown;
    try {
      Hl7Message.parse(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Hl7ReadError);
    expect((error as Hl7ReadError).location).toBe(location);
  });
});

describe("buildAck", () => {
  test("swaps sender and receiver, echoes the control id escaped, and names the field in ERR", () => {
    const header = headerOf(Hl7Message.parse(MSH));
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

  test("escapes every delimiter of a value", () => {
    expect(escapeValue("a|b^c~d\\e&f\rg")).toBe("a\\F\\b\\S\\c\\R\\d\\E\\e\\T\\f g");
  });
});

import { describe, expect, test } from "vitest";
import { readPatient } from "./adt.js";
import { parseMessage } from "./hl7.js";

const MSH = "MSH|^~\\&|EHR|CLINIC|CORE|FAC|20261127||ADT^A04^ADT_A01|C1|P|2.5.1";

describe("the patient of a PID segment", () => {
  test("a control character in a value, escaped or raw, is stored as a space and never as itself", () => {
    const read = readPatient(
      parseMessage(
        `${MSH}\rPID|1||42\u000b7^^^H^MR||Doe\\X0D\\Smith^Ann\\X0D0A\\Marie\\.br\\Lou\u0007||||||1 Elm\\X09\\St^^Town\\X1C\\^TX^75001||^PRN^PH^^^214^5550000`,
      ),
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const { mrn, lastName, firstName, address } = read.changes;
    expect({ mrn, lastName, firstName, address }).toEqual({
      mrn: "42 7",
      lastName: "Doe Smith",
      firstName: "Ann Marie Lou",
      address: { street: "1 Elm St", city: "Town", state: "TX", zip: "75001" },
    });
    expect(JSON.stringify(read.changes)).not.toMatch(/\\u00|\\[rnt]/);
  });
});

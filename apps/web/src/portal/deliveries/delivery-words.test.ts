import { describe, expect, test } from "vitest";
import { DELIVERY_STATUSES, INTERFACE_TYPES } from "@core-care/schema";
import { interfaceKind, messageForDisplay, statusQuery, statusWords } from "./delivery-words";

describe("delivery words", () => {
  test("names every status, a queued one as Queued", () => {
    expect(DELIVERY_STATUSES.map(statusWords)).toEqual([
      "Queued",
      "Sending",
      "Delivered",
      "Failed",
      "Skipped",
      "Cancelled",
    ]);
  });

  test("names every interface type's kind in words", () => {
    const kinds = INTERFACE_TYPES.map(interfaceKind);
    expect(new Set(kinds).size).toBe(INTERFACE_TYPES.length);
    expect(interfaceKind("hl7-mllp")).toBe("HL7 v2 over MLLP");
    expect(interfaceKind(null)).toBe("Removed interface");
  });

  test("takes only a known status from the URL", () => {
    expect(statusQuery("failed")).toBe("failed");
    expect(statusQuery("lost")).toBe("");
    expect(statusQuery(null)).toBe("");
  });

  test("shows each HL7 segment on a line of its own and other documents as sent", () => {
    expect(messageForDisplay("MSH|^~\\&|A\rPID|1\rOBX|1")).toBe("MSH|^~\\&|A\nPID|1\nOBX|1");
    expect(messageForDisplay('{"a":"b\\r"}')).toBe('{"a":"b\\r"}');
  });
});

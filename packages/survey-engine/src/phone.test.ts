import { describe, expect, test } from "vitest";
import { formatPhone } from "./phone.js";

describe("formatPhone", () => {
  test.each([
    ["5551234567", "555-123-4567"],
    ["(555) 123 4567", "555-123-4567"],
    ["5551234", "555-1234"],
    ["12345", "12345"],
  ])("formats %s as %s", (input, expected) => {
    expect(formatPhone(input)).toBe(expected);
  });
});

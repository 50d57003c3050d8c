import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { formatPhone } from "./phone.js";

const digit = fc.constantFrom(..."0123456789".split(""));
const digits = (length: number) =>
  fc.array(digit, { minLength: length, maxLength: length }).map((d) => d.join(""));
const noise = fc
  .array(fc.constantFrom(" ", "(", ")", "-", ".", "+"), { maxLength: 2 })
  .map((n) => n.join(""));

function interleave(text: string, separators: string[]): string {
  return text
    .split("")
    .map((char, index) => (separators[index] ?? "") + char)
    .join("");
}

describe("formatPhone", () => {
  test.each([
    ["5551234567", "555-123-4567"],
    ["(555) 123 4567", "555-123-4567"],
    ["555.123.4567", "555-123-4567"],
    ["5551234", "555-1234"],
    ["555 1234", "555-1234"],
    ["12345", "12345"],
    ["1-555-123-4567", "1-555-123-4567"],
    ["", ""],
  ])("formats %j as %j", (input, expected) => {
    expect(formatPhone(input)).toBe(expected);
  });

  test("groups any ten digits 3-3-4, whatever surrounds them (property)", () => {
    fc.assert(
      fc.property(digits(10), fc.array(noise, { maxLength: 10 }), (number, separators) => {
        const formatted = formatPhone(interleave(number, separators));
        expect(formatted).toMatch(/^\d{3}-\d{3}-\d{4}$/);
        expect(formatted.replace(/-/g, "")).toBe(number);
      }),
    );
  });

  test("groups any seven digits 3-4 (property)", () => {
    fc.assert(
      fc.property(digits(7), fc.array(noise, { maxLength: 7 }), (number, separators) => {
        const formatted = formatPhone(interleave(number, separators));
        expect(formatted).toMatch(/^\d{3}-\d{4}$/);
        expect(formatted.replace(/-/g, "")).toBe(number);
      }),
    );
  });

  test("leaves other lengths unchanged and is idempotent (property)", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const count = text.replace(/\D/g, "").length;
        const formatted = formatPhone(text);
        if (count !== 7 && count !== 10) expect(formatted).toBe(text);
        expect(formatPhone(formatted)).toBe(formatted);
      }),
    );
  });
});

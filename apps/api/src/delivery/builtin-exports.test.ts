import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { BUILTIN_EXPORTS_FILE, builtinExports, type BuiltinExport } from "./builtin-exports.js";

// The file was written from the code before the question types had descriptors; every export of every
// built-in survey (and of a survey of every type) must come out of today's code the same.
const before = JSON.parse(readFileSync(BUILTIN_EXPORTS_FILE, "utf8")) as BuiltinExport[];
const now = builtinExports();

describe("the exports of every built-in survey are as before", () => {
  test("the same cases", () => {
    expect(now.map((c) => c.case)).toEqual(before.map((c) => c.case));
    expect(before.length).toBe(16);
  });

  test.each(before.map((c, i) => [c.case, i] as const))(
    "%s: HL7, CDA, FHIR, CSV and summary text",
    (_name, i) => {
      const old = before[i]!;
      const current = now[i]!;
      expect(current.summary.length).toBeGreaterThan(3);
      expect(current.summary).toEqual(old.summary);
      expect(current.csv).toBe(old.csv);
      expect(current.hl7).toBe(old.hl7);
      expect(current.fhir).toEqual(old.fhir);
      expect(current.cda).toBe(old.cda);
    },
  );
});

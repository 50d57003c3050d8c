import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { answersFromEntries, setAnswer } from "./answers.js";
import type { Answers } from "./types.js";

const segment = fc.oneof(
  fc.constantFrom("a", "b", "meds", "name", "0", "1", "2", "__proto__", "constructor", "prototype"),
  fc.integer({ min: 0, max: 3 }).map(String),
);
const path = fc.oneof(
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(".")),
  fc.tuple(segment, fc.integer({ min: 0, max: 2 }), segment).map(([a, i, b]) => `${a}[${i}].${b}`),
);
const value = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(undefined));

describe("answersFromEntries", () => {
  test("stores what setAnswer builds writing the same entries one after another from {}", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(path, value), { maxLength: 12 }), (entries) => {
        const expected = entries.reduce<Answers>(
          (answers, [p, v]) => (v === undefined ? answers : setAnswer(answers, p, v)),
          {},
        );
        // Compared as stored (JSON): a name set on a list, which JSON does not keep, is where they may differ.
        expect(JSON.stringify(answersFromEntries(entries))).toBe(JSON.stringify(expected));
      }),
      { numRuns: 2000, seed: 36 },
    );
  });

  test("never writes to a prototype", () => {
    const built = answersFromEntries([
      ["__proto__.polluted", "yes"],
      ["a.constructor.prototype.polluted", "yes"],
      ["ok", "kept"],
    ]);
    expect(built).toStrictEqual({ ok: "kept" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("numeric segments make lists, as in the engine's paths", () => {
    expect(
      answersFromEntries([
        ["meds.1.name", "aspirin"],
        ["meds.0.name", "statin"],
      ]),
    ).toStrictEqual({
      meds: [{ name: "statin" }, { name: "aspirin" }],
    });
  });
});

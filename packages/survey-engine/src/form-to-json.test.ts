import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { formToJson, jsonToForm } from "./form-to-json.js";

describe("formToJson", () => {
  test("nests dotted paths and bracketed indexes", () => {
    expect(
      formToJson([
        ["patientId", "p1"],
        ["pain.hadPain", "2"],
        ["pain.locations0", "head"],
        ["address.street", "1 Main St"],
        ["members[0].name", "Ann"],
        ["members[1].name", "Bob"],
        ["members[1].age", "40"],
        ["grid[0][1]", "x"],
      ]),
    ).toEqual({
      patientId: "p1",
      pain: { hadPain: "2", locations0: "head" },
      address: { street: "1 Main St" },
      members: [{ name: "Ann" }, { name: "Bob", age: "40" }],
      grid: [[undefined, "x"]],
    });
  });

  test("omits blank values and keeps every other value as given", () => {
    expect(
      formToJson([
        ["empty", ""],
        ["spaces", "   "],
        ["missing", undefined],
        ["nothing", null],
        ["zero", "0"],
        ["number", 0],
        ["flag", false],
      ]),
    ).toEqual({ zero: "0", number: 0, flag: false });
  });

  test("collects a repeated name into a list and appends for name[]", () => {
    expect(
      formToJson([
        ["color", "red"],
        ["color", "blue"],
        ["tags[]", "a"],
        ["tags[]", "b"],
      ]),
    ).toEqual({ color: ["red", "blue"], tags: ["a", "b"] });
  });

  test("ignores names that reach a prototype or are malformed", () => {
    const result = formToJson([
      ["__proto__.polluted", "yes"],
      ["a.constructor.prototype.polluted", "yes"],
      ["a..b", "x"],
      ["ok", "1"],
    ]);
    expect(result).toEqual({ ok: "1" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("accepts any iterable, such as a Map", () => {
    expect(formToJson(new Map([["a.b", "c"]]))).toEqual({ a: { b: "c" } });
  });

  const key = fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,6}$/);
  const leaf = fc.oneof(
    fc.string({ minLength: 1 }).filter((text) => text.trim() !== ""),
    fc.integer(),
    fc.boolean(),
  );
  const { tree } = fc.letrec<{ tree: unknown; node: unknown }>((tie) => ({
    tree: fc.dictionary(key, tie("node"), { minKeys: 1, maxKeys: 4 }),
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      tie("tree"),
      fc.array(fc.oneof(leaf, tie("tree")), { minLength: 1, maxLength: 3 }),
    ),
  }));

  test("round-trips nested JSON through form pairs (property)", () => {
    fc.assert(
      fc.property(tree, (json) => {
        expect(formToJson(jsonToForm(json))).toEqual(json);
      }),
    );
  });

  test("gives every pair back in the same order and survives shuffled pairs (property)", () => {
    fc.assert(
      fc.property(
        tree.chain((json) =>
          fc.tuple(fc.constant(json), fc.shuffledSubarray(jsonToForm(json), { minLength: 0 })),
        ),
        ([json, subset]) => {
          const pairs = jsonToForm(json);
          expect(jsonToForm(formToJson(pairs))).toEqual(pairs);
          for (const [name, value] of jsonToForm(formToJson(subset))) {
            expect(subset).toContainEqual([name, value]);
          }
        },
      ),
    );
  });
});

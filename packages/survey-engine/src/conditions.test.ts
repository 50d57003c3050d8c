import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  CONDITION_ACTIONS,
  compileConditions,
  evaluateCondition,
  evaluateConditions,
  hasResponse,
  normalizeAction,
} from "./conditions.js";
import type { Condition, EvalContext } from "./types.js";

const contextWith = (value: unknown): EvalContext => ({ answers: { q: { a: value } } });
const holds = (action: string, answer: unknown, fieldValue?: unknown): boolean =>
  evaluateCondition({ fieldName: "q.a", action, fieldValue }, contextWith(answer));

describe("normalizeAction", () => {
  test.each([
    ["Equals", "Equals"],
    ["equals", "Equals"],
    ["Not Equals", "Not Equals"],
    ["not equals", "Not Equals"],
    ["NOT_EQUALS", "Not Equals"],
    ["Greater than", "Greater Than"],
    ["Greater Than", "Greater Than"],
    ["greater  than", "Greater Than"],
    ["Less than", "Less Than"],
    ["Has response", "Has Response"],
    ["HAS RESPONSE", "Has Response"],
    ["one of", "One Of"],
  ])("maps %j to %j", (input, canonical) => {
    expect(normalizeAction(input)).toBe(canonical);
  });

  test("returns undefined for an unknown action", () => {
    expect(normalizeAction("Contains")).toBeUndefined();
    expect(normalizeAction("")).toBeUndefined();
  });

  test("maps every canonical action onto itself", () => {
    for (const action of CONDITION_ACTIONS) expect(normalizeAction(action)).toBe(action);
  });
});

describe("hasResponse", () => {
  test.each([
    [undefined, false],
    [null, false],
    ["", false],
    ["   ", false],
    ["\t\n", false],
    [[], false],
    [[""], false],
    [{}, false],
    [{ a: " " }, false],
    ["x", true],
    [" x ", true],
    [0, true],
    [false, true],
    [["a"], true],
    [{ a: "1" }, true],
  ])("of %j is %s", (value, expected) => {
    expect(hasResponse(value)).toBe(expected);
  });
});

describe("evaluateCondition", () => {
  test.each<[string, unknown, unknown, boolean]>([
    // Equals: strict, '1' is not 1
    ["Equals", "1", "1", true],
    ["Equals", 1, "1", false],
    ["Equals", "1", 1, false],
    ["Equals", 1, 1, true],
    ["Equals", 0, 0, true],
    ["Equals", true, true, true],
    ["Equals", "true", true, false],
    ["Equals", undefined, "", false],
    ["Equals", null, null, true],
    ["Equals", "", "", true],
    ["Equals", "yes", "Yes", false],
    ["Equals", ["a"], "a", false],
    ["Equals", { x: 1 }, { x: 1 }, false],
    ["Equals", "2026-01-01", "2026-01-01", true],
    // Not Equals: the strict negation
    ["Not Equals", "1", 1, true],
    ["Not Equals", 1, 1, false],
    ["Not Equals", "never", "never", false],
    ["Not Equals", "quit", "never", true],
    ["Not Equals", undefined, "never", true],
    ["Not Equals", null, "never", true],
    ["Not Equals", false, false, false],
    // Greater Than: raw values, false with no response
    ["Greater Than", 5, 3, true],
    ["Greater Than", 3, 3, false],
    ["Greater Than", 2, 3, false],
    ["Greater Than", "1", "0", true],
    ["Greater Than", "0", "0", false],
    ["Greater Than", "10", "9", false],
    ["Greater Than", "10", 9, true],
    ["Greater Than", 10, "9", true],
    ["Greater Than", "b", "a", true],
    ["Greater Than", "2026-03-01", "2026-02-28", true],
    ["Greater Than", true, 0, true],
    ["Greater Than", "abc", 1, false],
    ["Greater Than", undefined, 0, false],
    ["Greater Than", null, -1, false],
    ["Greater Than", "", -1, false],
    ["Greater Than", "  ", -1, false],
    ["Greater Than", [], -1, false],
    ["Greater Than", [5], 1, false],
    ["Greater Than", { a: 5 }, 1, false],
    ["Greater Than", 5, undefined, false],
    ["Greater Than", 0, -1, true],
    // Less Than
    ["Less Than", 2, 3, true],
    ["Less Than", 3, 3, false],
    ["Less Than", 4, 3, false],
    ["Less Than", "0", "1", true],
    ["Less Than", "9", "10", false],
    ["Less Than", "9", 10, true],
    ["Less Than", "a", "b", true],
    ["Less Than", false, 1, true],
    ["Less Than", undefined, 100, false],
    ["Less Than", null, 100, false],
    ["Less Than", "", 100, false],
    ["Less Than", [], 100, false],
    ["Less Than", "x", 100, false],
    // Has Response ignores fieldValue
    ["Has Response", "x", undefined, true],
    ["Has Response", 0, undefined, true],
    ["Has Response", false, undefined, true],
    ["Has Response", ["a"], undefined, true],
    ["Has Response", undefined, undefined, false],
    ["Has Response", null, undefined, false],
    ["Has Response", "", undefined, false],
    ["Has Response", "   ", undefined, false],
    ["Has Response", [], undefined, false],
    // One Of: the answer, or an item of a list answer, is in the list
    ["One Of", "b", ["a", "b"], true],
    ["One Of", "c", ["a", "b"], false],
    ["One Of", 1, ["1"], false],
    ["One Of", 1, [1, 2], true],
    ["One Of", ["x", "b"], ["a", "b"], true],
    ["One Of", ["x"], ["a", "b"], false],
    ["One Of", "a", "a", true],
    ["One Of", undefined, [undefined], false],
    ["One Of", "", [""], false],
    // unknown actions never hold
    ["Contains", "a", "a", false],
    ["", "a", "a", false],
  ])("%s with answer %j and fieldValue %j is %s", (action, answer, fieldValue, expected) => {
    expect(holds(action, answer, fieldValue)).toBe(expected);
  });

  test.each([
    ["Greater than", 5, 3, true],
    ["greater than", 2, 3, false],
    ["Less than", 2, 3, true],
    ["Has response", "x", undefined, true],
    ["has response", "", undefined, false],
    ["not equals", "a", "b", true],
  ])("accepts the spec's spelling %j", (action, answer, fieldValue, expected) => {
    expect(holds(action, answer, fieldValue)).toBe(expected);
  });

  test("reads the context globals for tenant.id, tenant.location.id, sex and age", () => {
    const context: EvalContext = {
      answers: { sex: "answer-sex", age: 1, tenant: "answer-tenant" },
      tenant: { id: "t1", location: { id: "loc9" }, settings: { alternateFalls: true } },
      sex: "F",
      age: 67,
    };
    expect(evaluateCondition({ fieldName: "tenant.id", action: "Equals", fieldValue: "t1" }, context)).toBe(
      true,
    );
    expect(
      evaluateCondition({ fieldName: "tenant.location.id", action: "Equals", fieldValue: "loc9" }, context),
    ).toBe(true);
    expect(
      evaluateCondition(
        { fieldName: "tenant.settings.alternateFalls", action: "Equals", fieldValue: true },
        context,
      ),
    ).toBe(true);
    expect(evaluateCondition({ fieldName: "sex", action: "Equals", fieldValue: "F" }, context)).toBe(true);
    expect(evaluateCondition({ fieldName: "age", action: "Greater Than", fieldValue: 64 }, context)).toBe(
      true,
    );
  });

  test("treats missing globals as no response", () => {
    const context: EvalContext = { answers: {} };
    expect(evaluateCondition({ fieldName: "tenant.location.id", action: "Has Response" }, context)).toBe(
      false,
    );
    expect(evaluateCondition({ fieldName: "age", action: "Less Than", fieldValue: 200 }, context)).toBe(
      false,
    );
    expect(evaluateCondition({ fieldName: "sex", action: "Not Equals", fieldValue: "F" }, context)).toBe(
      true,
    );
  });

  test("reads answers by dotted path, list items by index", () => {
    const context: EvalContext = {
      answers: { a: { b: { c: { d: "deep" } } }, members: [{ name: "x" }, { name: "y" }], top: "t" },
    };
    const equals = (fieldName: string, fieldValue: unknown) =>
      evaluateCondition({ fieldName, action: "Equals", fieldValue }, context);
    expect(equals("top", "t")).toBe(true);
    expect(equals("a.b.c.d", "deep")).toBe(true);
    expect(equals("members.1.name", "y")).toBe(true);
    expect(equals("members[0].name", "x")).toBe(true);
    expect(equals("members.5.name", undefined)).toBe(true);
    expect(equals("top.length", undefined)).toBe(true);
  });

  test("reads nothing for an empty field name", () => {
    const context: EvalContext = { answers: { a: "x" } };
    expect(evaluateCondition({ fieldName: "", action: "Has Response" }, context)).toBe(false);
    expect(evaluateCondition({ fieldName: ".", action: "Equals", fieldValue: undefined }, context)).toBe(
      true,
    );
  });

  test("never reads inherited properties", () => {
    const context: EvalContext = { answers: { a: {} } };
    for (const fieldName of [
      "constructor",
      "a.constructor",
      "a.toString",
      "__proto__",
      "a.b.c.hasOwnProperty",
    ]) {
      expect(evaluateCondition({ fieldName, action: "Has Response" }, context)).toBe(false);
    }
  });
});

describe("evaluateConditions", () => {
  const t: Condition = { fieldName: "yes", action: "Equals", fieldValue: true };
  const f: Condition = { fieldName: "yes", action: "Equals", fieldValue: false };
  const context: EvalContext = { answers: { yes: true } };
  const join = (condition: Condition, joinType: "and" | "or"): Condition => ({ ...condition, joinType });

  test("holds for an empty or missing list", () => {
    expect(evaluateConditions([], context)).toBe(true);
    expect(evaluateConditions(undefined, context)).toBe(true);
  });

  test.each<[string, Condition[], boolean]>([
    ["T", [t], true],
    ["F", [f], false],
    ["T and T", [t, join(t, "and")], true],
    ["T and F", [t, join(f, "and")], false],
    ["F or T", [f, join(t, "or")], true],
    ["F or F", [f, join(f, "or")], false],
    ["T or F and F (and binds tighter)", [t, join(f, "or"), join(f, "and")], true],
    ["F and T or T", [f, join(t, "and"), join(t, "or")], true],
    ["F or T and F", [f, join(t, "or"), join(f, "and")], false],
    ["T and F or F and T", [t, join(f, "and"), join(f, "or"), join(t, "and")], false],
    ["T and F or T and T", [t, join(f, "and"), join(t, "or"), join(t, "and")], true],
    ["first joinType is ignored: (or)F and T", [join(f, "or"), join(t, "and")], false],
    ["missing joinType means and", [t, { ...f }], false],
    ["five conditions all hold", [t, t, t, t, t], true],
    ["five conditions, last fails", [t, t, t, t, f], false],
  ])("%s is %s", (_name, conditions, expected) => {
    expect(evaluateConditions(conditions, context)).toBe(expected);
    expect(compileConditions(conditions)(context)).toBe(expected);
  });

  test("accepts joinType in any case", () => {
    const upper = { ...t, joinType: "OR" } as unknown as Condition;
    expect(evaluateConditions([f, upper], context)).toBe(true);
  });

  test("follows conditions replaced in, added to or removed from a list it evaluated before", () => {
    const conditions: Condition[] = [{ fieldName: "yes", action: "Equals", fieldValue: true }];
    expect(evaluateConditions(conditions, context)).toBe(true);
    conditions[0] = { ...(conditions[0] as Condition), fieldValue: false };
    expect(evaluateConditions(conditions, context)).toBe(false);
    conditions.push({ fieldName: "yes", action: "Equals", fieldValue: true, joinType: "or" });
    expect(evaluateConditions(conditions, context)).toBe(true);
    conditions[1] = { fieldName: "missing", action: "Has Response", joinType: "or" };
    expect(evaluateConditions(conditions, context)).toBe(false);
    conditions.length = 0;
    expect(evaluateConditions(conditions, context)).toBe(true);
  });
});

describe("evaluateConditions (properties)", () => {
  const flag = fc.record({
    value: fc.boolean(),
    joinType: fc.constantFrom<"and" | "or" | undefined>("and", "or", undefined),
  });

  test("equals an OR of AND groups split at each 'or'", () => {
    fc.assert(
      fc.property(fc.array(flag, { maxLength: 12 }), (flags) => {
        const conditions: Condition[] = flags.map(({ joinType }, index) => ({
          fieldName: `f${index}`,
          action: "Equals",
          fieldValue: true,
          joinType,
        }));
        const answers = Object.fromEntries(flags.map(({ value }, index) => [`f${index}`, value]));
        const groups: boolean[][] = [[]];
        flags.forEach(({ value, joinType }, index) => {
          if (index > 0 && joinType === "or") groups.push([]);
          (groups.at(-1) as boolean[]).push(value);
        });
        const expected = groups.some((group) => group.every(Boolean));
        expect(evaluateConditions(conditions, { answers })).toBe(expected);
      }),
    );
  });

  const answer = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(fc.string(), { maxLength: 3 }),
  );

  test("makes Equals and Not Equals exact opposites", () => {
    fc.assert(
      fc.property(answer, answer, (value, fieldValue) => {
        const context: EvalContext = { answers: { a: value } };
        const equals = evaluateCondition({ fieldName: "a", action: "Equals", fieldValue }, context);
        const notEquals = evaluateCondition({ fieldName: "a", action: "Not Equals", fieldValue }, context);
        expect(equals).toBe(!notEquals);
      }),
    );
  });

  test("never lets Greater Than and Less Than both hold, nor either without a response", () => {
    fc.assert(
      fc.property(answer, answer, (value, fieldValue) => {
        const context: EvalContext = { answers: { a: value } };
        const greater = evaluateCondition({ fieldName: "a", action: "Greater Than", fieldValue }, context);
        const less = evaluateCondition({ fieldName: "a", action: "Less Than", fieldValue }, context);
        expect(greater && less).toBe(false);
        if (!hasResponse(value)) expect(greater || less).toBe(false);
      }),
    );
  });
});

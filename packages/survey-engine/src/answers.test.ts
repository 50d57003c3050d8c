import { describe, expect, test } from "vitest";
import { getAnswer, setAnswer, splitPath } from "./answers.js";

describe("splitPath", () => {
  test.each([
    ["a", ["a"]],
    ["pain.hadPain", ["pain", "hadPain"]],
    ["a.0.b", ["a", "0", "b"]],
    ["a[0].b", ["a", "0", "b"]],
    ["a[1][2]", ["a", "1", "2"]],
  ])("splits %j", (path, segments) => {
    expect(splitPath(path)).toEqual(segments);
  });
});

describe("getAnswer", () => {
  const answers = { pain: { hadPain: "2" }, members: [{ name: "x" }], zero: 0 };

  test("reads nested values, list items and falsy values", () => {
    expect(getAnswer(answers, "pain.hadPain")).toBe("2");
    expect(getAnswer(answers, "members.0.name")).toBe("x");
    expect(getAnswer(answers, "zero")).toBe(0);
  });

  test("returns undefined for missing or inherited paths", () => {
    expect(getAnswer(answers, "pain.where")).toBeUndefined();
    expect(getAnswer(answers, "pain.hadPain.length")).toBeUndefined();
    expect(getAnswer(answers, "constructor")).toBeUndefined();
    expect(getAnswer(answers, "__proto__")).toBeUndefined();
  });
});

describe("setAnswer", () => {
  test("writes a nested value without changing the original", () => {
    const original = { pain: { hadPain: "1" }, other: { kept: true } };
    const next = setAnswer(original, "pain.activities", "3");
    expect(next).toEqual({ pain: { hadPain: "1", activities: "3" }, other: { kept: true } });
    expect(original).toEqual({ pain: { hadPain: "1" }, other: { kept: true } });
    expect(next.other).toBe(original.other);
  });

  test("creates objects and lists along the path", () => {
    expect(setAnswer({}, "a.b.c", 1)).toEqual({ a: { b: { c: 1 } } });
    expect(setAnswer({}, "list.0.name", "x")).toEqual({ list: [{ name: "x" }] });
  });

  test("removes a value set to undefined and leaves missing paths alone", () => {
    const answers = { pain: { hadPain: "1", activities: "0" } };
    expect(setAnswer(answers, "pain.activities", undefined)).toEqual({ pain: { hadPain: "1" } });
    expect(setAnswer(answers, "social.diets0", undefined)).toBe(answers);
  });

  test("refuses paths that reach a prototype", () => {
    const answers = {};
    expect(setAnswer(answers, "__proto__.polluted", true)).toBe(answers);
    expect(setAnswer(answers, "a.constructor.prototype.polluted", true)).toBe(answers);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

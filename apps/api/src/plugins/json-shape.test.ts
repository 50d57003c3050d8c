import { describe, expect, test } from "vitest";
import fc from "fast-check";
import {
  JSON_BODY_LIMITS,
  JsonShapeScanner,
  TOO_DEEP,
  TOO_MANY_ENTRIES,
  TOO_WIDE,
  skipJsonValue,
  type JsonShapeLimits,
} from "./json-shape.js";
import { firstBadField } from "./input-guard.js";

/** The shape of a parsed value, walked as plainly as can be: the reference the scan must agree with. */
function shapeOf(value: unknown): { depth: number; entries: number; width: number } {
  let depth = 0;
  let entries = 0;
  let width = 0;
  const visit = (item: unknown, level: number) => {
    if (item === null || typeof item !== "object") return;
    depth = Math.max(depth, level);
    const children = Array.isArray(item) ? item : Object.values(item);
    entries += children.length;
    width = Math.max(width, children.length);
    for (const child of children) visit(child, level + 1);
  };
  visit(value, 1);
  return { depth, entries, width };
}

const scanner = (limits: Partial<JsonShapeLimits> = {}) =>
  new JsonShapeScanner({ depth: 64, entries: 1e9, width: 1e9, ...limits });
const bytes = (text: string) => Buffer.from(text, "utf8");
/** A scan of the whole text at once. */
const scan = (text: string, limits: Partial<JsonShapeLimits> = {}) => scanner(limits).scan(bytes(text));

/** Strings with the characters that make a scan's work: quotes, backslashes, escapes and surrogates. */
const awkwardString = fc
  .array(
    fc.oneof(
      fc.constantFrom('"', "\\", "\u0000", "\n", "\ud83d\ude00", "\ud800", "\udc00", "é", "{", "]", ",", "u"),
      fc.string({ maxLength: 3 }),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(""));

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    awkwardString,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(awkwardString, tie("value"), { maxKeys: 5 }),
  ),
})).value;

describe("JsonShapeScanner", () => {
  test("measures what JSON.parse builds: any value is within limits equal to its shape, and past each one less", () => {
    fc.assert(
      fc.property(json, fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const shape = shapeOf(JSON.parse(text));
        expect(scan(text, shape)).toBe(bytes(text).length);
        if (shape.depth > 0) expect(scan(text, { depth: shape.depth - 1 })).toBe(TOO_DEEP);
        if (shape.entries > 0) expect(scan(text, { entries: shape.entries - 1 })).toBe(TOO_MANY_ENTRIES);
        if (shape.width > 1) expect(scan(text, { width: shape.width - 1 })).toBe(TOO_WIDE);
      }),
      { numRuns: 2000 },
    );
  });

  test("tells bad text exactly when the parsed value holds some, in a value or a key", () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = JSON.stringify(value);
        const whole = scanner();
        whole.scan(bytes(text));
        expect(whole.badText).toBe(firstBadField(JSON.parse(text), "body") !== undefined);
      }),
      { numRuns: 2000 },
    );
  });

  test.each([
    ['"\\u0000"', true],
    ['"\\ud800"', true],
    ['"\\udc00"', true],
    ['"\\ud800\\u0041"', true],
    ['{"\\ud83d": 1}', true],
    ['"\\ud83d\\ude00"', false],
    // An escaped high surrogate before a character written in UTF-8 (a pair of its own) stays alone.
    ['"\\ud83d\u{1f600}"', true],
    ['"\\\\u0000"', false],
    ['"\\u00e9\\n\\""', false],
  ])("reads the escapes of %s (bad text: %s)", (text, bad) => {
    const whole = scanner();
    expect(whole.scan(bytes(text))).toBe(bytes(text).length);
    expect(whole.badText).toBe(bad);
  });

  test("counts the same in pieces cut anywhere (in a string, an escape, a number) as whole", () => {
    fc.assert(
      fc.property(json, fc.array(fc.nat(), { maxLength: 8 }), (value, cuts) => {
        const all = bytes(JSON.stringify(value));
        const points = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
        const shape = shapeOf(value === undefined ? null : JSON.parse(all.toString()));
        for (const limits of [shape, { ...shape, entries: Math.max(0, shape.entries - 1) }]) {
          const whole = scanner(limits);
          const wholeAt = whole.scan(all);
          const pieces = scanner(limits);
          let at = 0;
          let fault = 0;
          for (const [k, end] of [...points, all.length].entries()) {
            const start = k === 0 ? 0 : ([...points, all.length][k - 1] ?? 0);
            const reached = pieces.push(all.subarray(start, end));
            if (reached < 0) {
              fault = reached;
              break;
            }
            at = start + reached;
          }
          pieces.end();
          if (wholeAt < 0) expect(fault).toBe(wholeAt);
          else {
            expect(fault).toBe(0);
            expect(pieces.ended).toBe(true);
            expect(pieces.badText).toBe(whole.badText);
            expect(pieces.entries).toBe(whole.entries);
            if (points.length === 0) expect(at).toBe(wholeAt);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  test("counts no bracket, comma or quote inside a string", () => {
    const text = JSON.stringify({ a: '[[[[,,,,{{{{"\\', b: ["]]]", "}}},,"] });
    expect(scan(text, { depth: 2, entries: 4, width: 2 })).toBe(text.length);
  });

  test("stops at the end of the value, and at the first count past a limit", () => {
    expect(scan('  {"a":[1,2]} trailing')).toBe(13);
    expect(scanner().scan(bytes("[1, 2] [3]"), 6)).toBe(10);
    expect(scan("12.5e3,")).toBe(6);
    expect(scan('"a\\"b" 1')).toBe(6);
    expect(scan(`[${"0,".repeat(2_000_000)}0]`, { width: 1_000 })).toBe(TOO_WIDE);
    expect(scan(`${"[".repeat(1_000_000)}`, { depth: 64 })).toBe(TOO_DEEP);
  });

  test("steps over a value it was not asked to count", () => {
    const text = `[{"a":"]}\\"",${"[1],".repeat(5_000)}0}, 7]`;
    expect(skipJsonValue(bytes(text), 1)).toBe(text.lastIndexOf("}") + 1);
    expect(skipJsonValue(bytes(text), text.lastIndexOf("7"))).toBe(text.length - 1);
  });

  test("refuses the bodies that froze the server: 100,000 keys, 60,000 small nested arrays", () => {
    const keys = `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":1`).join(",")}}`;
    const arrays = `[${Array.from({ length: 60_000 }, () => "[1,[2]]").join(",")}]`;
    const spread = `[${Array.from({ length: 300 }, () => `[${"1,".repeat(199)}1]`).join(",")}]`;
    const body = new JsonShapeScanner(JSON_BODY_LIMITS);
    expect(keys.length).toBeGreaterThan(1_000_000);
    expect(body.scan(bytes(keys))).toBe(TOO_WIDE);
    expect(body.scan(bytes(arrays))).toBe(TOO_WIDE);
    // Each array within the width, 60,300 entries in all.
    expect(body.scan(bytes(spread))).toBe(TOO_MANY_ENTRIES);
  });
});

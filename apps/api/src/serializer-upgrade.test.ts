import { describe, expect, test } from "vitest";
import { z } from "zod";

// Upgrade test of docs/decisions/004-response-serializer.md: serializer.ts compiles each response schema
// by reading zod's definitions (`schema._zod.def`), which zod documents for its own packages, not as a
// stable API. A zod release that renames a definition's type or field fails here, naming the record;
// unnoticed, the stripper would hand more of each answer to zod (slower) or keep a key it should drop.
const RECORD =
  "zod changed the definitions serializer.ts reads: see docs/decisions/004-response-serializer.md";

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

describe("the zod definitions serializer.ts reads", () => {
  const inner = z.string();

  test.each([
    ["object", "shape", z.object({ a: inner })],
    ["array", "element", z.array(inner)],
    ["optional", "innerType", inner.optional()],
    ["nullable", "innerType", inner.nullable()],
    ["readonly", "innerType", z.object({ a: inner }).readonly()],
    ["default", "innerType", inner.default("x")],
    ["prefault", "innerType", inner.prefault("x")],
    ["nonoptional", "innerType", inner.optional().nonoptional()],
    ["pipe", "in", inner.pipe(z.string())],
    ["pipe", "out", inner.pipe(z.string())],
  ] as const)("%s: the definition names its type and its %s", (type, field, schema) => {
    const def = defOf(schema);
    expect(def.type, RECORD).toBe(type);
    const part = field === "shape" ? (def.shape as Record<string, unknown>).a : def[field];
    expect(part, `${RECORD} (${type}.${field})`).toBeInstanceOf(z.ZodType);
  });

  test.each([
    ["string", z.string()],
    ["number", z.number()],
    ["bigint", z.bigint()],
    ["boolean", z.boolean()],
    ["date", z.date()],
    ["enum", z.enum(["a", "b"])],
    ["literal", z.literal("a")],
    ["null", z.null()],
    ["undefined", z.undefined()],
    ["any", z.any()],
    ["unknown", z.unknown()],
    ["union", z.union([z.string(), z.number()])],
  ] as const)("%s: the definition names its type", (type, schema) => {
    expect(defOf(schema).type, RECORD).toBe(type);
  });

  test("an object's catchall is set only for a loose or strict object", () => {
    expect(defOf(z.object({ a: inner })).catchall, RECORD).toBeUndefined();
    expect(defOf(z.looseObject({ a: inner })).catchall, RECORD).toBeInstanceOf(z.ZodType);
    expect(defOf(z.strictObject({ a: inner })).catchall, RECORD).toBeInstanceOf(z.ZodType);
  });

  test("a coerced schema says so", () => {
    expect(defOf(z.coerce.number()).coerce, RECORD).toBe(true);
    expect(defOf(z.number()).coerce, RECORD).not.toBe(true);
  });

  test("a rewriting check is an 'overwrite' check with its function as tx", () => {
    const checks = defOf(z.string().trim().toLowerCase()).checks as {
      _zod: { def: { check: string; tx?: (v: unknown) => unknown } };
    }[];
    expect(
      checks.map((c) => c._zod.def.check),
      RECORD,
    ).toEqual(["overwrite", "overwrite"]);
    expect(
      checks.reduce((v: unknown, c) => c._zod.def.tx?.(v), "  AbC "),
      RECORD,
    ).toBe("abc");
    expect(
      (defOf(z.string().min(1)).checks as { _zod: { def: { check: string } } }[])[0]?._zod.def.check,
      RECORD,
    ).not.toBe("overwrite");
  });

  test("a preprocess is a transform piped into its schema, called with the value and a payload of issues", () => {
    const def = defOf(z.preprocess((v) => String(v), z.string()));
    expect(def.type, RECORD).toBe("pipe");
    const transform = defOf(def.in as z.ZodType);
    expect(transform.type, RECORD).toBe("transform");
    const payload = { value: 5, issues: [] as unknown[] };
    expect((transform.transform as (v: unknown, p: typeof payload) => unknown)(5, payload), RECORD).toBe("5");
    const fails = defOf(
      z.string().transform((v, ctx) => {
        ctx.addIssue({ code: "custom", message: "no" });
        return v;
      }),
    );
    const transformOf = defOf(fails.out as z.ZodType);
    const reported = { value: "x", issues: [] as unknown[] };
    // serializer.ts hands the value to zod when the call reports an issue or throws; it must do one.
    let refused: boolean;
    try {
      (transformOf.transform as (v: unknown, p: typeof reported) => unknown)("x", reported);
      refused = reported.issues.length > 0;
    } catch {
      refused = true;
    }
    expect(refused, `${RECORD} (a transform's issue went unseen)`).toBe(true);
  });
});

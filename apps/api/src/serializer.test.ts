import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";
import {
  pagedListOf,
  PatientSchema,
  SurveyResultListItemSchema,
  SurveyResultSchema,
  TenantSchema,
} from "@core-care/schema";
import Fastify from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { compileStrip, sendJsonText, serializerCompiler } from "./serializer.js";

const serialize = (schema: z.ZodType, data: unknown) =>
  serializerCompiler({ schema, method: "GET", url: "/api/x", httpStatus: "200" })(data);

/** What zod's own parse answers, as the serialiser sent it before. */
const byZod = (schema: z.ZodType, data: unknown) => JSON.stringify(schema.parse(data));

const id = "0123456789abcdef01234567";

describe("compileStrip", () => {
  test("keeps only the keys the schema names, at every depth", () => {
    const schema = z.object({
      name: z.string(),
      owner: z.object({ email: z.string() }),
      rows: z.array(z.object({ n: z.number() })),
      maybe: z.object({ a: z.string() }).nullable(),
      later: z.object({ b: z.string() }).optional(),
      tags: z.record(z.string(), z.object({ c: z.string() })),
    });
    const data = {
      name: "n",
      passwordHash: "secret-1",
      owner: { email: "e", passwordHash: "secret-2" },
      rows: [{ n: 1, tenantId: "secret-3" }],
      maybe: { a: "a", token: "secret-4" },
      later: { b: "b", key: "secret-5" },
      tags: { t: { c: "c", hidden: "secret-6" } },
    };
    const text = JSON.stringify(compileStrip(schema)(data));
    expect(text).not.toMatch(/secret|passwordHash|tenantId|token|hidden/);
    expect(text).toBe(byZod(schema, data));
  });

  test("rewrites what zod rewrites: preprocess, trim, lower-case, defaults", () => {
    const schema = z.object({
      email: z.preprocess((v) => (v === "" ? undefined : v), z.string().trim().toLowerCase().optional()),
      name: z.string().trim(),
      street: z.string().default(""),
      count: z.coerce.number(),
      length: z.string().transform((text) => text.length),
      piped: z.string().trim().pipe(z.string().max(10)),
    });
    for (const data of [
      { email: "  Ann@Example.TEST ", name: "  Ann ", count: "3", length: "four", piped: " p " },
      { email: "", name: "Bo", street: "Main St", count: 1, length: "", piped: "q" },
    ])
      expect(JSON.stringify(compileStrip(schema)(data))).toBe(byZod(schema, data));
  });

  test("keeps a plain object of named keys as it is, and copies any other", () => {
    const schema = z.object({ a: z.string(), b: z.number().optional(), c: z.boolean() });
    const strip = compileStrip(schema);
    const exact = { a: "x", b: 1, c: true };
    const fewer = { a: "x", c: false };
    expect(strip(exact)).toBe(exact);
    expect(strip(fewer)).toBe(fewer);
    const bare = Object.assign(Object.create(null) as object, exact);
    expect(strip(bare)).toBe(bare);
    // A key the schema does not name, a class's instance (its toJSON), a prototype's getter: copied.
    class Row {
      a = "x";
      c = true;
      secret = "hidden";
      toJSON() {
        return { a: "from toJSON" };
      }
    }
    const withGetter = Object.create({
      get b() {
        return 2;
      },
    }) as object;
    for (const data of [
      { ...exact, secret: "hidden" },
      new Row(),
      Object.assign(withGetter, { a: "x", c: true }),
    ]) {
      const kept = strip(data);
      expect(kept).not.toBe(data);
      expect(JSON.stringify(kept)).toBe(byZod(schema, data));
      expect(JSON.stringify(kept)).not.toMatch(/hidden|toJSON/);
    }
    // An object schema with a field that is not kept as it is copies every object.
    const trimmed = z.object({ a: z.string().trim() });
    const data = { a: " x " };
    expect(compileStrip(trimmed)(data)).not.toBe(data);
    expect(JSON.stringify(compileStrip(trimmed)(data))).toBe(byZod(trimmed, data));
  });

  test("strips a union's member as zod picks it", () => {
    const schema = z.object({
      v: z.union([z.object({ kind: z.literal("a"), a: z.string() }), z.object({ kind: z.literal("b") })]),
    });
    const data = { v: { kind: "b", a: "left out", extra: 1 } };
    expect(JSON.stringify(compileStrip(schema)(data))).toBe(byZod(schema, data));
  });

  test("answers as zod does for the API's own schemas, with columns the schemas do not name", () => {
    const patient = {
      id,
      tenantId: "demo",
      deletedAt: null,
      mrn: " M-1 ",
      firstName: "Walter ",
      lastName: "Hobbs",
      dob: "1952-11-02",
      sex: "M",
      email: "",
      phone: null,
      address: { street: " 1 Main St", city: "Town", state: "", zip: "12345", geo: "x" },
      ethnicity: "",
      preferredLanguage: "es",
    };
    const item = {
      id,
      surveyId: id,
      surveyTitle: "Core Care Wellness Exam",
      surveyVersion: 2,
      patientId: id,
      patientName: "Walter Hobbs",
      isSubmitted: true,
      createdAt: "2026-11-27T16:11:40.143Z",
      updatedAt: "2026-11-27T16:11:40.143Z",
      patientFirstName: "Walter",
      patientLastName: "Hobbs",
      patientMrn: "M-1",
      patientDob: "1952-11-02",
      answers_raw: "{}",
      capped_total: 3,
    };
    const cases: [z.ZodType, unknown][] = [
      [PatientSchema, patient],
      [PatientSchema, { ...patient, email: " Walter.Hobbs@Example.TEST ", phone: " 555-201-3344 " }],
      [
        pagedListOf(PatientSchema),
        { items: [patient, patient], total: 2, totalCapped: false, nextCursor: null, prevCursor: null },
      ],
      [
        pagedListOf(SurveyResultListItemSchema),
        { items: [item], total: 1, totalCapped: false, nextCursor: "abc", prevCursor: null, sql: "x" },
      ],
      [SurveyResultSchema, { ...item, answers: { q1: "yes", nested: { a: [1, 2] } } }],
    ];
    for (const [schema, data] of cases)
      expect(JSON.stringify(compileStrip(schema)(data))).toBe(byZod(schema, data));
    const tenant = TenantSchema.parse({ id: "demo", name: "Demo" });
    expect(JSON.stringify(compileStrip(TenantSchema)({ ...tenant, secret: 1 }))).toBe(
      byZod(TenantSchema, tenant),
    );
  });
});

describe("serializerCompiler", () => {
  const before = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = before;
  });
  const schema = z.object({ name: z.string().trim(), n: z.number() });

  test("outside production a response its schema refuses fails, as before", () => {
    expect(serialize(schema, { name: " a ", n: 1, x: 2 })).toBe('{"name":"a","n":1}');
    expect(() => serialize(schema, { name: "a", n: "1" })).toThrow(/Response doesn't match the schema/);
  });

  test("in production only what the stripper hands to zod is checked; the rest is copied", () => {
    process.env.NODE_ENV = "production";
    expect(serialize(schema, { name: " a ", n: 1, x: 2 })).toBe('{"name":"a","n":1}');
    expect(serialize(schema, { name: "a", n: "1" })).toBe('{"name":"a","n":"1"}');
    expect(() => serialize(z.object({ n: z.coerce.number().int() }), { n: "x" })).toThrow(
      /Response doesn't match the schema/,
    );
  });
});

describe("sendJsonText", () => {
  const before = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = before;
  });

  /** A server answering `text` as it is from a route whose response schema is a list of names. */
  async function answering(text: string) {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.get(
      "/x",
      { schema: { response: { 200: z.object({ items: z.array(z.object({ name: z.string() })) }) } } },
      (_request, reply) => sendJsonText(reply, text),
    );
    try {
      return await app.inject({ method: "GET", url: "/x" });
    } finally {
      await app.close();
    }
  }

  test("sends the text as it is, as JSON", async () => {
    const text = '{"items":[{"name":"Zoë \\"Z\\" \\\\ \\u0001 🙂"}]}';
    const res = await answering(text);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.body).toBe(text);
    expect(res.json()).toEqual({ items: [{ name: 'Zoë "Z" \\ \u0001 🙂' }] });
  });

  test("outside production refuses text its schema refuses, or would write otherwise", async () => {
    for (const text of [
      '{"items":[{"name":1}]}', // a value of the wrong type
      '{"items":[{"name":"a","ssn":"x"}]}', // a key the schema does not name
      '{"items":[{"name":"a"}],"extra":true}',
      '{"items": [{"name":"a"}]}', // not as JSON.stringify writes it
    ]) {
      expect((await answering(text)).statusCode, text).toBe(500);
    }
  });

  test("in production sends the text unchecked", async () => {
    process.env.NODE_ENV = "production";
    expect((await answering('{"items": []}')).body).toBe('{"items": []}');
  });
});

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import fc from "fast-check";
import { createTestApp, login, type Session, type TestApp } from "../../test/helpers.js";

// Every registered route, called by an admin with generated params, queries and bodies: hostile text
// (U+0000, lone surrogates, long strings), wrong types, JSON nested deeper than any document, and
// values well-formed enough to pass validation now and then. No answer may be a 5xx.
const RUNS_PER_ROUTE = 20;
/** Fixed, so that a failure found here is found again on the next run. */
const SEED = 16;

let t: TestApp;
let s: Session;
let tenantId: string;

/** A new admin's session: a fuzzed call may sign the current one out or change its roles. */
async function freshAdmin(): Promise<Session> {
  const u = await t.createTestUser(tenantId, { role: "admin" });
  return login(t.app, u.email);
}

beforeAll(async () => {
  t = await createTestApp();
  const u = await t.createTestTenant({ role: "admin" });
  tenantId = u.tenantId;
  s = await login(t.app, u.email);
});
afterAll(async () => {
  await t.close();
});

const OBJECT_ID = "65a1b2c3d4e5f60718293a4b";
const hostileText = fc.constantFrom(
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00y",
  "",
  " ",
  OBJECT_ID,
  "demo",
  "1",
  "-1",
  "1e309",
  "2026-02-30",
  "a@b.test",
  "%",
  "../..",
  "x".repeat(600),
  "\u202e\ufeff",
);
const utf16Units = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
});
const text = fc.oneof(hostileText, fc.string(), utf16Units);
const FIELD_NAMES = [
  "id",
  "mrn",
  "firstName",
  "lastName",
  "dob",
  "sex",
  "email",
  "phone",
  "address",
  "title",
  "pages",
  "sections",
  "questions",
  "answers",
  "clientRequestId",
  "surveyId",
  "patientId",
  "version",
  "name",
  "settings",
  "roles",
  "tenantId",
  "password",
  "isSubmitted",
  "markup",
  "script",
  "mock",
  "clinical",
  "q",
  "page",
  "limit",
  "code",
];
const key = fc.oneof(fc.constantFrom(...FIELD_NAMES), text);
const leaf = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(0, -1, 2 ** 31, Number.MAX_SAFE_INTEGER),
);
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 6 }),
  ),
})).value;
/** JSON text nested `depth` levels, written out directly: JSON.stringify itself overflows on it. */
const deep = fc
  .integer({ min: 60, max: 6_000 })
  .map((depth) => `${'{"a":['.repeat(depth)}1${"]}".repeat(depth)}`);
/** Bodies the routes accept, so that a hostile value in one field gets past validation to the database. */
const TEMPLATES: Record<string, unknown>[] = [
  { mrn: "F-1", firstName: "Ann", lastName: "Lee", dob: "1950-01-01", sex: "F", email: "ann@example.test" },
  {
    id: OBJECT_ID,
    title: "Fuzz",
    sections: [{ id: "s1", title: "Main" }],
    pages: [
      {
        id: "p1",
        title: "One",
        section: "s1",
        questions: [{ id: "q1", type: "text", fieldName: "f", title: "T" }],
      },
    ],
    version: 0,
  },
  {
    id: OBJECT_ID,
    title: "Fuzz",
    script: "",
    markup: "<p>x</p>",
    mock: { x: "y" },
    clinical: false,
    version: 0,
  },
  { clientRequestId: "req-fuzz-1", surveyId: OBJECT_ID, patientId: OBJECT_ID, answers: { f: "x" } },
  { name: "Front desk", firstName: "Ann", lastName: "Lee", email: "ann@example.test", roles: 1 },
];

/** Every path to a string in a value, and the value with the string at one of them replaced. */
function withTextAt(value: unknown, pick: number, replacement: string): unknown {
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (typeof v === "string") paths.push(path);
    else if (Array.isArray(v)) v.forEach((c, i) => walk(c, [...path, i]));
    else if (typeof v === "object" && v !== null)
      for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
  };
  walk(value, []);
  const target = paths[pick % Math.max(paths.length, 1)];
  if (target === undefined || target.length === 0) return value;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const step of target.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
  at[target[target.length - 1] as string | number] = replacement;
  return copy;
}

const mutated = fc
  .tuple(fc.constantFrom(...TEMPLATES), fc.nat(), fc.oneof(hostileText, text))
  .map(([template, pick, replacement]) => JSON.stringify(withTextAt(template, pick, replacement)));

/** A request body as JSON text, or none. */
const body = fc.oneof(
  mutated,
  mutated,
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), json, { maxKeys: 10 }).map((value) => JSON.stringify(value)),
  json.map((value) => JSON.stringify(value) ?? "null"),
  deep,
  fc.constant(undefined),
);
const QUERY_NAMES = [
  "q",
  "page",
  "limit",
  "sort",
  "order",
  "newerThan",
  "patientId",
  "surveyId",
  "from",
  "to",
];
const query = fc.oneof(
  fc.dictionary(fc.constantFrom(...QUERY_NAMES), fc.oneof(hostileText, text), { maxKeys: 3 }),
  fc.dictionary(key, fc.oneof(text, fc.integer().map(String)), { maxKeys: 4 }),
);

/** A path or query component as a client might send it; a lone surrogate goes as raw invalid UTF-8. */
function encode(part: string): string {
  try {
    return encodeURIComponent(part);
  } catch {
    return "%ED%A0%80";
  }
}

describe("every route, fuzzed", () => {
  test("no generated request answers a 5xx", async () => {
    const routes = [...t.app.routeKeys()]
      .map((routeKey) => routeKey.split(" ") as [string, string])
      .filter(([method, url]) => url?.startsWith("/api/") && method !== "OPTIONS");
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let requests = 0;
    for (const [method, url] of routes) {
      const params = url.match(/:[A-Za-z]+/g) ?? [];
      const inputs = fc.sample(
        fc.tuple(
          fc.array(fc.oneof(text, fc.constant(OBJECT_ID)), {
            minLength: params.length,
            maxLength: params.length,
          }),
          query,
          body,
        ),
        { numRuns: RUNS_PER_ROUTE, seed: SEED },
      );
      for (const [values, q, payload] of inputs) {
        let path = url;
        params.forEach((param, i) => {
          path = path.replace(param, encode(values[i] ?? ""));
        });
        const search = Object.entries(q)
          .map(([k, v]) => `${encode(k)}=${encode(v)}`)
          .join("&");
        const sendsBody = payload !== undefined && method !== "GET" && method !== "DELETE";
        const res = await s.inject({
          method,
          url: search === "" ? path : `${path}?${search}`,
          ...(sendsBody ? { payload, headers: { "content-type": "application/json" } } : {}),
        });
        requests++;
        if (res.statusCode === 401) s = await freshAdmin();
        if (res.statusCode >= 500) failures.push(`${method} ${path} -> ${res.statusCode} ${res.body}`);
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThanOrEqual(routes.length * RUNS_PER_ROUTE);
  }, 120_000);
});

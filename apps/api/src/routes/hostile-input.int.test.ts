import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import { CORE_CARE_WELLNESS_EXAM_ID, objectId } from "@core-care/survey-engine";
import type { Patient } from "@core-care/schema";
import { createTestApp, errorFields, login, type Session, type TestApp } from "../../test/helpers.js";

// Text PostgreSQL cannot store (U+0000, a lone UTF-16 surrogate), JSON too deep to walk, ids whose
// history was deleted, and a retried save that is not the same save: each answers 4xx, never 500.
let t: TestApp;
let s: Session;
const logLines: string[] = [];

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  t = await createTestApp({ config: { logLevel: "error" }, logStream });
  const u = await t.createTestTenant({ role: "admin" });
  s = await login(t.app, u.email);
});
afterAll(async () => {
  await t.close();
});

const patient = (over: Record<string, unknown> = {}) => ({
  mrn: `H-${objectId().slice(-8)}`,
  firstName: "Ivy",
  lastName: "Nul",
  dob: "1950-01-01",
  sex: "F",
  ...over,
});

const survey = (id = objectId(), over: Record<string, unknown> = {}) => ({
  id,
  title: "Hostile",
  sections: [{ id: "s1", title: "Main" }],
  pages: [
    {
      id: "p1",
      title: "One",
      section: "s1",
      questions: [{ id: "q1", type: "text", fieldName: "why", title: "Why?" }],
    },
  ],
  version: 0,
  ...over,
});

const report = (id = objectId(), over: Record<string, unknown> = {}) => ({
  id,
  title: "Hostile",
  script: "",
  markup: "<p>x</p>",
  clinical: false,
  version: 0,
  ...over,
});

function expect400(res: { statusCode: number; body: string; json<T>(): T }, field: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json<{ responseStatus: { status: number } }>().responseStatus.status).toBe(400);
  expect(errorFields(res as Parameters<typeof errorFields>[0])).toContain(field);
}

describe("text PostgreSQL cannot store", () => {
  test.each([
    ["U+0000", "a\u0000b"],
    ["a lone surrogate", "a\ud800b"],
    ["a lone low surrogate", "\udc00"],
  ])("%s in a patient's name answers 400 naming it and stores nothing", async (_label, bad) => {
    const mrn = `H-${objectId().slice(-8)}`;
    expect400(
      await s.inject({ method: "POST", url: "/api/patients", payload: patient({ mrn, firstName: bad }) }),
      "firstName",
    );
    const nested = patient({ mrn, address: { street: bad, city: "X", state: "VA", zip: "22202" } });
    expect400(await s.inject({ method: "POST", url: "/api/patients", payload: nested }), "address.street");
    const list = await s.inject({ method: "GET", url: `/api/patients?q=${mrn}` });
    expect(list.json<{ total: number }>().total).toBe(0);
  });

  test("U+0000 in the search query answers 400 naming q", async () => {
    expect400(await s.inject({ method: "GET", url: "/api/patients?q=a%00b" }), "q");
  });

  test("U+0000 in a survey's title or a survey result's answers answers 400 naming it", async () => {
    const bad = survey(objectId(), { title: "x\u0000" });
    expect400(await s.inject({ method: "POST", url: `/api/surveys/${bad.id}`, payload: bad }), "title");
    const p = (await s.inject({ method: "POST", url: "/api/patients", payload: patient() })).json<Patient>();
    const res = await s.inject({
      method: "POST",
      url: "/api/surveyresults",
      payload: {
        clientRequestId: `req-${objectId()}`,
        surveyId: CORE_CARE_WELLNESS_EXAM_ID,
        patientId: p.id,
        answers: { why: "\u0000" },
      },
    });
    expect400(res, "answers.why");
    const badKey = await s.inject({
      method: "POST",
      url: "/api/surveyresults",
      payload: {
        clientRequestId: `req-${objectId()}`,
        surveyId: CORE_CARE_WELLNESS_EXAM_ID,
        patientId: p.id,
        answers: { ["k\ud800"]: 1 },
      },
    });
    expect400(badKey, "answers");
  });
});

describe("JSON nested deeper than any document", () => {
  test.each([5_000, 20_000])("%i levels answer 400", async (depth) => {
    const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const res = await s.inject({
      method: "POST",
      url: "/api/patients",
      headers: { "content-type": "application/json" },
      payload: `{"mrn":"D-1","firstName":"A","lastName":"B","dob":"1950-01-01","sex":"F","address":${deep}}`,
    });
    expect400(res, "body");
    const mock = `{"id":"${objectId()}","title":"Deep","script":"","markup":"","clinical":false,"version":0,"mock":${deep}}`;
    const saved = await s.inject({
      method: "POST",
      url: `/api/reports/${objectId()}`,
      headers: { "content-type": "application/json" },
      payload: mock,
    });
    expect400(saved, "body");
  });
});

describe("saving again an id that was deleted", () => {
  test("a survey saved under a deleted survey's id continues its kept versions", async () => {
    const id = objectId();
    const first = await s.inject({ method: "POST", url: `/api/surveys/${id}`, payload: survey(id) });
    expect(first.statusCode, first.body).toBe(200);
    await s.inject({ method: "POST", url: `/api/surveys/${id}`, payload: survey(id, { version: 1 }) });
    expect((await s.inject({ method: "DELETE", url: `/api/surveys/${id}` })).statusCode).toBe(204);
    const again = await s.inject({
      method: "POST",
      url: `/api/surveys/${id}`,
      payload: survey(id, { title: "Again" }),
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ id, version: 3 });
    const read = await s.inject({ method: "GET", url: `/api/surveys/${id}` });
    expect(read.json()).toMatchObject({ title: "Again", version: 3 });
    const versions = await s.inject({ method: "GET", url: `/api/surveys/${id}/versions` });
    expect(versions.json<{ version: number }[]>().map((v) => v.version)).toEqual([3, 2, 1]);
    const next = await s.inject({
      method: "POST",
      url: `/api/surveys/${id}`,
      payload: survey(id, { version: 3 }),
    });
    expect(next.json()).toEqual({ id, version: 4 });
  });

  test("a report saved under a deleted report's id continues its kept versions", async () => {
    const id = objectId();
    const first = await s.inject({ method: "POST", url: `/api/reports/${id}`, payload: report(id) });
    expect(first.statusCode, first.body).toBe(200);
    expect((await s.inject({ method: "DELETE", url: `/api/reports/${id}` })).statusCode).toBe(204);
    const again = await s.inject({
      method: "POST",
      url: `/api/reports/${id}`,
      payload: report(id, { title: "Again" }),
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ id, version: 2 });
    expect((await s.inject({ method: "GET", url: `/api/reports/${id}` })).json()).toMatchObject({
      title: "Again",
      version: 2,
    });
  });
});

describe("POST /api/surveyresults with a clientRequestId already used", () => {
  test("answers 422 for a different payload and keeps the first; the same payload stays idempotent", async () => {
    const p = (await s.inject({ method: "POST", url: "/api/patients", payload: patient() })).json<Patient>();
    const first = {
      clientRequestId: `req-${objectId()}`,
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: p.id,
      answers: { a: 1 },
    };
    const saved = await s.inject({ method: "POST", url: "/api/surveyresults", payload: first });
    expect(saved.statusCode).toBe(200);
    const { id } = saved.json<{ id: string }>();
    const same = await s.inject({ method: "POST", url: "/api/surveyresults", payload: first });
    expect(same.json()).toEqual({ id });
    const other = await s.inject({
      method: "POST",
      url: "/api/surveyresults",
      payload: { ...first, answers: { a: 2 } },
    });
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json<{ responseStatus: { status: number } }>().responseStatus.status).toBe(422);
    expect(errorFields(other)).toContain("clientRequestId");
    const read = await s.inject({ method: "GET", url: `/api/surveyresults/${id}` });
    expect(read.json<{ answers: unknown }>().answers).toEqual({ a: 1 });
  });
});

describe("the log line of a 500", () => {
  test("carries the cause's type and message and no request data", async () => {
    const other = await createTestApp({
      config: { logLevel: "error" },
      logStream: new Writable({ write: (c: Buffer, _e, d) => (logLines.push(c.toString()), d()) }),
    });
    const u = await other.createTestTenant({ role: "admin" });
    const session = await login(other.app, u.email);
    await other.db.execute(sql`alter table patients rename to patients_gone`);
    const before = logLines.length;
    const res = await session.inject({ method: "GET", url: "/api/patients?q=Zebedee" });
    expect(res.statusCode).toBe(500);
    const lines = logLines.slice(before).filter((l) => l.includes('"level":50'));
    expect(lines.length).toBeGreaterThan(0);
    const line = lines.join("\n");
    expect(line).not.toContain("[object Object]");
    expect(line).not.toContain("Zebedee");
    const logged = JSON.parse(lines[0] ?? "{}") as { err?: { type?: string; message?: string } };
    expect(logged.err?.type).toMatch(/\w/);
    expect(logged.err?.message).toMatch(/\w/);
    await other.close();
  });
});

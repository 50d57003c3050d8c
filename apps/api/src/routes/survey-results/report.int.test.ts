import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import type { Patient, ReportDataLine, SurveyResult } from "@core-care/schema";
import { createPage, createQuestion, objectId, type Survey } from "@core-care/survey-engine";
import { patients, surveyResults } from "../../db/schema.js";
import { reportPages } from "../../services/report-data.js";
import {
  createTestApp,
  login,
  postPatient,
  type Session,
  type TestApp,
  type TestTenant,
} from "../../../test/helpers.js";

let t: TestApp;
let tenant: TestTenant;
let admin: Session;
const SURVEY_ID = "report-survey";

/** A survey with a question flagged pii, so its answer is a protected field of this survey only. */
function reportSurvey(): Survey {
  const page = {
    ...createPage(),
    questions: [
      { ...createQuestion("text"), fieldName: "nickname", title: "Nickname", pii: true },
      { ...createQuestion("number"), fieldName: "weight", title: "Weight" },
      { ...createQuestion("text"), fieldName: "firstName", title: "First name" },
    ],
  };
  return {
    id: SURVEY_ID,
    title: "Report survey",
    description: "",
    canSubscribeTo: false,
    sections: [],
    pages: [page],
    version: 0,
  };
}

const createPatient = (session: Session, mrn: string): Promise<Patient> =>
  postPatient(session, { mrn, firstName: "Rita", lastName: `Report ${mrn}`, dob: "1950-02-03" });

async function saveResult(session: Session, patientId: string, weight: number): Promise<string> {
  const res = await session.inject({
    method: "POST",
    url: "/api/surveyresults",
    payload: {
      clientRequestId: objectId(),
      surveyId: SURVEY_ID,
      patientId,
      isSubmitted: true,
      answers: { nickname: "Ri", weight, firstName: "Rita" },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: string }>().id;
}

function parse(body: string): ReportDataLine[] {
  expect(body.endsWith("\n")).toBe(true);
  return body
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as ReportDataLine);
}

const resultsOf = (lines: ReportDataLine[]) =>
  lines.flatMap((line) => (line.type === "result" ? [line.result] : []));

/** The ids the report must give, newest first, ties by id: read straight from the table. */
async function expectedIds(tenantId: string): Promise<string[]> {
  const rows = await t.db
    .select({ id: surveyResults.id })
    .from(surveyResults)
    .where(and(eq(surveyResults.tenantId, tenantId), sql`${surveyResults.deletedAt} is null`))
    .orderBy(sql`${surveyResults.createdAt} desc, ${surveyResults.id} desc`);
  return rows.map((row) => row.id);
}

let ids: string[] = [];
let removedPatientResult: string;
let deletedResult: string;
let oldResult: string;
let otherTenantResult: string;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTestTenant({ role: "admin" });
  admin = await login(t.app, tenant.email);
  const saved = await admin.inject({
    method: "POST",
    url: `/api/surveys/${SURVEY_ID}`,
    payload: reportSurvey(),
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const patient = await createPatient(admin, "R-1");
  for (let i = 0; i < 7; i++) ids.push(await saveResult(admin, patient.id, 60 + i));
  // Four results made within the same microsecond, and two within the same millisecond: the pages must
  // neither skip nor repeat any of them.
  await t.db
    .update(surveyResults)
    .set({ createdAt: sql`'2026-03-01 10:00:00.123456+00'::timestamptz` })
    .where(
      and(
        eq(surveyResults.tenantId, tenant.tenantId),
        sql`${surveyResults.id} in (${sql.join(
          ids.slice(0, 4).map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    );
  await t.db
    .update(surveyResults)
    .set({ createdAt: sql`'2026-03-01 10:00:00.123999+00'::timestamptz` })
    .where(
      and(
        eq(surveyResults.tenantId, tenant.tenantId),
        sql`${surveyResults.id} in (${sql.join(
          ids.slice(4, 6).map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    );
  oldResult = ids[6] ?? "";
  await t.db
    .update(surveyResults)
    .set({ createdAt: sql`now() - interval '3 days'` })
    .where(and(eq(surveyResults.tenantId, tenant.tenantId), eq(surveyResults.id, oldResult)));

  deletedResult = await saveResult(admin, patient.id, 99);
  expect(
    (await admin.inject({ method: "DELETE", url: `/api/surveyresults/${deletedResult}` })).statusCode,
  ).toBe(204);
  const removed = await createPatient(admin, "R-2");
  removedPatientResult = await saveResult(admin, removed.id, 98);
  await t.db
    .update(patients)
    .set({ deletedAt: new Date() })
    .where(and(eq(patients.tenantId, tenant.tenantId), eq(patients.id, removed.id)));

  const other = await t.createTestTenant({ role: "admin" });
  const otherAdmin = await login(t.app, other.email);
  expect(
    (await otherAdmin.inject({ method: "POST", url: `/api/surveys/${SURVEY_ID}`, payload: reportSurvey() }))
      .statusCode,
  ).toBe(200);
  otherTenantResult = await saveResult(otherAdmin, (await createPatient(otherAdmin, "O-1")).id, 50);
  ids = await expectedIds(tenant.tenantId);
  ids = ids.filter((id) => id !== deletedResult && id !== removedPatientResult);
});

afterAll(async () => {
  await t.close();
});

describe("GET /api/surveyresults/report", () => {
  test("streams every result of the period with its answers, then the end line with the count", async () => {
    const res = await admin.inject({
      method: "GET",
      url: "/api/surveyresults/report?duration=5&clinical=true",
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/x-ndjson");
    expect(res.headers["cache-control"]).toBe("no-store");
    const lines = parse(res.body);
    const results = resultsOf(lines) as SurveyResult[];
    expect(results.map((r) => r.id)).toEqual(ids);
    expect(lines.at(-1)).toEqual({ type: "end", count: ids.length, duration: "All" });
    const first = results.find((r) => r.id === ids[0]);
    expect(first).toMatchObject({
      surveyId: SURVEY_ID,
      surveyTitle: "Report survey",
      surveyVersion: 1,
      isSubmitted: true,
      patientName: "Rita Report R-1",
      answers: { nickname: "Ri", firstName: "Rita" },
    });
    expect(typeof first?.answers.weight).toBe("number");
  });

  test("leaves out other practices' results, removed results and those of removed patients", async () => {
    const res = await admin.inject({ method: "GET", url: "/api/surveyresults/report?clinical=true" });
    const got = resultsOf(parse(res.body)).map((r) => r.id);
    expect(got).not.toContain(otherTenantResult);
    expect(got).not.toContain(deletedResult);
    expect(got).not.toContain(removedPatientResult);
  });

  test("removes the protected fields and the patient's name on the server unless the report is clinical", async () => {
    const res = await admin.inject({ method: "GET", url: "/api/surveyresults/report" });
    const results = resultsOf(parse(res.body));
    expect(results).toHaveLength(ids.length);
    for (const result of results) {
      expect(result).not.toHaveProperty("patientName");
      expect(result).not.toHaveProperty("patientId");
      expect(Object.keys(result.answers).sort()).toEqual(["weight"]);
    }
    expect(res.body).not.toContain("Rita");
  });

  test("keeps to the duration filter", async () => {
    const res = await admin.inject({
      method: "GET",
      url: "/api/surveyresults/report?duration=0&clinical=true",
    });
    const lines = parse(res.body);
    const got = resultsOf(lines).map((r) => r.id);
    expect(got).not.toContain(oldResult);
    expect(lines.at(-1)).toMatchObject({ type: "end", duration: "Since Yesterday" });
  });

  test("keeps to a range of days, both ends included", async () => {
    const day = await admin.inject({
      method: "GET",
      url: "/api/surveyresults/report?clinical=true&from=2026-03-01&to=2026-03-01",
    });
    expect(day.statusCode).toBe(200);
    expect(
      resultsOf(parse(day.body))
        .map((r) => r.id)
        .sort(),
    ).toEqual(ids.filter((id) => id !== oldResult).sort());
    const after = await admin.inject({
      method: "GET",
      url: "/api/surveyresults/report?clinical=true&from=2026-03-02",
    });
    const later = resultsOf(parse(after.body)).map((r) => r.id);
    expect(later).toContain(oldResult);
    expect(later).toEqual([oldResult]);
    const before = await admin.inject({
      method: "GET",
      url: "/api/surveyresults/report?clinical=true&to=2026-02-28",
    });
    expect(parse(before.body)).toEqual([{ type: "end", count: 0, duration: "All" }]);
  });

  test("answers 400 naming the field when a range ends before it starts or a day is not a date", async () => {
    const backwards = await admin.inject({
      method: "GET",
      url: "/api/surveyresults/report?from=2026-03-02&to=2026-03-01",
    });
    expect(backwards.statusCode).toBe(400);
    expect(JSON.stringify(backwards.json())).toContain('"to"');
    const bad = await admin.inject({ method: "GET", url: "/api/surveyresults/report?from=yesterday" });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('"from"');
  });

  test("is sent compressed to a client that accepts it, with the same lines", async () => {
    const plain = await admin.inject({ method: "GET", url: "/api/surveyresults/report?clinical=true" });
    const res = await admin.inject({
      method: "GET",
      url: "/api/surveyresults/report?clinical=true",
      headers: { "accept-encoding": "br" },
    });
    expect(res.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(res.rawPayload).toString("utf8")).toBe(plain.body);
  });

  test("answers 400 for an unknown duration or clinical value", async () => {
    for (const query of ["duration=2", "clinical=yes"]) {
      const res = await admin.inject({ method: "GET", url: `/api/surveyresults/report?${query}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty("responseStatus");
    }
  });
});

describe("reportPages", () => {
  test.each([1, 2, 3, 100])(
    "reads %i result(s) a page by keyset, none skipped or repeated within one microsecond",
    async (pageSize) => {
      const pages: ReportDataLine[][] = [];
      for await (const page of reportPages(
        t.db,
        tenant.tenantId,
        { duration: 5, clinical: true },
        { pageSize },
      )) {
        pages.push(page);
      }
      const results = resultsOf(pages.flat());
      expect(results.map((r) => r.id)).toEqual(ids);
      for (const page of pages) expect(resultsOf(page).length).toBeLessThanOrEqual(pageSize);
      expect(pages.length).toBe(Math.floor(ids.length / pageSize) + 1);
      expect(pages.at(-1)?.at(-1)).toEqual({ type: "end", count: ids.length, duration: "All" });
    },
  );
});

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CORE_CARE_WELLNESS_EXAM_ID, objectId, WELCOME_TO_MEDICARE_EXAM_ID } from "@core-care/survey-engine";
import type {
  DocumentVersion,
  ErrorResponse,
  Survey,
  SurveyResponse,
  SurveySummary,
} from "@core-care/schema";
import { createTestApp, errorFields, login, type TestApp } from "../../../test/helpers.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const newSurvey = (over: Partial<Survey> = {}) => ({
  id: objectId(),
  title: "Diabetes check",
  description: "Short",
  canSubscribeTo: false,
  sections: [{ id: "s1", title: "Main" }],
  pages: [
    {
      id: "p1",
      title: "Page one",
      section: "s1",
      conditions: [{ fieldName: "age", fieldValue: 65, action: "Greater than", joinType: "and" }],
      questions: [
        { id: "q1", type: "yesno", fieldName: "insulin", title: "Do you use insulin?", required: true },
      ],
    },
  ],
  version: 0,
  ...over,
});

async function admin() {
  const u = await t.createTestTenant({ role: "admin" });
  return { u, s: await login(t.app, u.email) };
}

describe("POST /api/surveys/{id}", () => {
  test("stores a new survey as version 1 and each save increments the version", async () => {
    const { s } = await admin();
    const survey = newSurvey();
    const first = await s.inject({ method: "POST", url: `/api/surveys/${survey.id}`, payload: survey });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ id: survey.id, version: 1 });
    const second = await s.inject({
      method: "POST",
      url: `/api/surveys/${survey.id}`,
      payload: { ...survey, title: "Renamed", version: 1 },
    });
    expect(second.json()).toEqual({ id: survey.id, version: 2 });
    const read = await s.inject({ method: "GET", url: `/api/surveys/${survey.id}` });
    expect(read.json<SurveyResponse>()).toMatchObject({ title: "Renamed", version: 2, readOnly: false });
    expect(read.json<SurveyResponse>().pages[0]?.conditions[0]?.action).toBe("Greater Than");
  });

  test("answers 409 with the server version as the error code when the version is stale", async () => {
    const { s } = await admin();
    const survey = newSurvey();
    await s.inject({ method: "POST", url: `/api/surveys/${survey.id}`, payload: survey });
    await s.inject({ method: "POST", url: `/api/surveys/${survey.id}`, payload: { ...survey, version: 1 } });
    const stale = await s.inject({
      method: "POST",
      url: `/api/surveys/${survey.id}`,
      payload: { ...survey, title: "Mine", version: 1 },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ErrorResponse>().responseStatus).toMatchObject({ status: 409, errorCode: 2 });
    const fresh = await s.inject({
      method: "POST",
      url: `/api/surveys/${survey.id}`,
      payload: { ...survey, version: 0 },
    });
    expect(fresh.json<ErrorResponse>().responseStatus.errorCode).toBe(2);
    expect((await s.inject({ method: "GET", url: `/api/surveys/${survey.id}` })).json<Survey>().title).toBe(
      "Diabetes check",
    );
  });

  test("answers 409 to one of two saves racing from the same version", async () => {
    const { s } = await admin();
    const survey = newSurvey();
    await s.inject({ method: "POST", url: `/api/surveys/${survey.id}`, payload: survey });
    const [a, b] = await Promise.all([
      s.inject({
        method: "POST",
        url: `/api/surveys/${survey.id}`,
        payload: { ...survey, title: "A", version: 1 },
      }),
      s.inject({
        method: "POST",
        url: `/api/surveys/${survey.id}`,
        payload: { ...survey, title: "B", version: 1 },
      }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
  });

  test.each([
    [
      { pages: [{ id: "p", questions: [{ id: "q", type: "slider", fieldName: "x", title: "" }] }] },
      "pages.0.questions.0.type",
    ],
    [
      { pages: [{ id: "p", conditions: [{ fieldName: "a", action: "Contains" }] }] },
      "pages.0.conditions.0.action",
    ],
    [{ version: -1 }, "version"],
    [{ canSubscribeTo: "yes" }, "canSubscribeTo"],
  ])("answers 400 for %j naming %s and stores nothing", async (over, field) => {
    const { s } = await admin();
    const survey = { ...newSurvey(), ...over };
    const res = await s.inject({ method: "POST", url: `/api/surveys/${survey.id}`, payload: survey });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toContain(field);
    expect((await s.inject({ method: "GET", url: `/api/surveys/${survey.id}` })).statusCode).toBe(404);
  });

  test("answers 400 naming id when the body's id differs from the path", async () => {
    const { s } = await admin();
    const survey = newSurvey();
    const res = await s.inject({ method: "POST", url: `/api/surveys/${objectId()}`, payload: survey });
    expect(errorFields(res)).toEqual(["id"]);
  });

  test("answers 403 to a plain user", async () => {
    const u = await t.createTestTenant({ role: "user" });
    const s = await login(t.app, u.email);
    const survey = newSurvey();
    expect(
      (await s.inject({ method: "POST", url: `/api/surveys/${survey.id}`, payload: survey })).statusCode,
    ).toBe(403);
    expect(
      (await s.inject({ method: "DELETE", url: `/api/surveys/${CORE_CARE_WELLNESS_EXAM_ID}` })).statusCode,
    ).toBe(403);
  });
});

describe("GET /api/surveys/{id}?newerThan", () => {
  test("answers 204 empty when the stored version is not newer, the survey when it is", async () => {
    const { s } = await admin();
    const survey = newSurvey();
    await s.inject({ method: "POST", url: `/api/surveys/${survey.id}`, payload: survey });
    const same = await s.inject({ method: "GET", url: `/api/surveys/${survey.id}?newerThan=1` });
    expect(same.statusCode).toBe(204);
    expect(same.body).toBe("");
    const newer = await s.inject({ method: "GET", url: `/api/surveys/${survey.id}?newerThan=0` });
    expect(newer.json<Survey>().version).toBe(1);
  });

  test("answers 400 naming newerThan when it is not a number", async () => {
    const { s } = await admin();
    const res = await s.inject({
      method: "GET",
      url: `/api/surveys/${CORE_CARE_WELLNESS_EXAM_ID}?newerThan=abc`,
    });
    expect(errorFields(res)).toEqual(["newerThan"]);
  });
});

describe("GET /api/surveys", () => {
  test("lists own surveys with the wellness exams first and other tenants' subscribable ones read-only", async () => {
    const a = await admin();
    const b = await admin();
    const shared = newSurvey({ title: "Shared screening", canSubscribeTo: true });
    const hidden = newSurvey({ title: "Private screening" });
    await b.s.inject({ method: "POST", url: `/api/surveys/${shared.id}`, payload: shared });
    await b.s.inject({ method: "POST", url: `/api/surveys/${hidden.id}`, payload: hidden });
    const res = await a.s.inject({ method: "GET", url: "/api/surveys" });
    const items = res.json<{ items: SurveySummary[] }>().items;
    expect(items[0]?.id).toBe(CORE_CARE_WELLNESS_EXAM_ID);
    expect(items[1]?.id).toBe(WELCOME_TO_MEDICARE_EXAM_ID);
    expect(items.find((i) => i.id === shared.id)).toMatchObject({ readOnly: true, tenantId: b.u.tenantId });
    expect(items.find((i) => i.id === hidden.id)).toBeUndefined();
    const read = await a.s.inject({ method: "GET", url: `/api/surveys/${shared.id}` });
    expect(read.json<SurveyResponse>().readOnly).toBe(true);
  });

  test("answers 404 for another tenant's survey that is not subscribable", async () => {
    const a = await admin();
    const b = await admin();
    const hidden = newSurvey();
    await b.s.inject({ method: "POST", url: `/api/surveys/${hidden.id}`, payload: hidden });
    expect((await a.s.inject({ method: "GET", url: `/api/surveys/${hidden.id}` })).statusCode).toBe(404);
    expect((await a.s.inject({ method: "GET", url: `/api/surveys/${hidden.id}/versions` })).statusCode).toBe(
      404,
    );
    expect((await a.s.inject({ method: "DELETE", url: `/api/surveys/${hidden.id}` })).statusCode).toBe(404);
    expect((await b.s.inject({ method: "GET", url: `/api/surveys/${hidden.id}` })).statusCode).toBe(200);
  });
});

describe("survey versions", () => {
  test("keeps a copy of every saved version", async () => {
    const { s } = await admin();
    const survey = newSurvey({ title: "v1 title" });
    await s.inject({ method: "POST", url: `/api/surveys/${survey.id}`, payload: survey });
    await s.inject({
      method: "POST",
      url: `/api/surveys/${survey.id}`,
      payload: { ...survey, title: "v2 title", version: 1 },
    });
    const list = await s.inject({ method: "GET", url: `/api/surveys/${survey.id}/versions` });
    expect(list.json<DocumentVersion[]>().map((v) => v.version)).toEqual([2, 1]);
    const author = `${s.me.user.firstName} ${s.me.user.lastName}`;
    expect(list.json<DocumentVersion[]>().map((v) => v.savedBy)).toEqual([author, author]);
    const v1 = await s.inject({ method: "GET", url: `/api/surveys/${survey.id}/versions/1` });
    expect(v1.json<Survey>()).toMatchObject({ title: "v1 title", version: 1 });
    expect((await s.inject({ method: "GET", url: `/api/surveys/${survey.id}/versions/9` })).statusCode).toBe(
      404,
    );
    expect(
      errorFields(await s.inject({ method: "GET", url: `/api/surveys/${survey.id}/versions/x` })),
    ).toEqual(["version"]);
  });
});

describe("versions of a shared survey", () => {
  test("other practices read only the versions saved while it was shared", async () => {
    const owner = await admin();
    const other = await admin();
    const survey = newSurvey({ title: "Private draft" });
    await owner.s.inject({ method: "POST", url: `/api/surveys/${survey.id}`, payload: survey });
    const shared = await owner.s.inject({
      method: "POST",
      url: `/api/surveys/${survey.id}`,
      payload: { ...survey, title: "Shared screening", canSubscribeTo: true, version: 1 },
    });
    expect(shared.statusCode, shared.body).toBe(200);

    const list = await other.s.inject({ method: "GET", url: `/api/surveys/${survey.id}/versions` });
    expect(list.json<DocumentVersion[]>().map((v) => v.version)).toEqual([2]);
    // Who in the owning practice saved it is that practice's business.
    expect(list.json<DocumentVersion[]>()[0]?.savedBy).toBeNull();
    expect(
      (await other.s.inject({ method: "GET", url: `/api/surveys/${survey.id}/versions/1` })).statusCode,
    ).toBe(404);
    const v2 = await other.s.inject({ method: "GET", url: `/api/surveys/${survey.id}/versions/2` });
    expect(v2.json<Survey>()).toMatchObject({ title: "Shared screening" });
    const own = await owner.s.inject({ method: "GET", url: `/api/surveys/${survey.id}/versions` });
    expect(own.json<DocumentVersion[]>().map((v) => v.version)).toEqual([2, 1]);
  });
});

describe("DELETE /api/surveys/{id}", () => {
  test("deletes a survey of the tenant", async () => {
    const { s } = await admin();
    const survey = newSurvey();
    await s.inject({ method: "POST", url: `/api/surveys/${survey.id}`, payload: survey });
    expect((await s.inject({ method: "DELETE", url: `/api/surveys/${survey.id}` })).statusCode).toBe(204);
    expect((await s.inject({ method: "GET", url: `/api/surveys/${survey.id}` })).statusCode).toBe(404);
  });
});

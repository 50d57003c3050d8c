import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq } from "drizzle-orm";
import { CORE_CARE_WELLNESS_EXAM_ID, coreCareWellnessExam, objectId } from "@core-care/survey-engine";
import type {
  Patient,
  SafetyAlert,
  SurveyResult,
  SurveyResultSummary,
  TenantSettings,
} from "@core-care/schema";
import {
  createTestApp,
  errorFields,
  login,
  postPatient,
  signedInWithPatient,
  type Session,
  type TestApp,
} from "../../../test/helpers.js";
import { outboxMessages } from "../../../test/mail.js";
import { auditEvents, safetyAlerts, surveyResults } from "../../db/schema.js";
import { withRequiredAnswers } from "../../../test/awv-answers.js";

/** Answers a submission of the Core Care Wellness Exam may carry: these plus its required questions. */
const complete = (answers: Record<string, unknown>) => withRequiredAnswers(coreCareWellnessExam, answers);

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const clinic = (role: "user" | "admin" = "user", settings: Partial<TenantSettings> = {}) =>
  signedInWithPatient(
    t,
    { mrn: `R-${objectId().slice(-6)}`, firstName: "Ruth", lastName: "Bader", dob: "1933-03-15" },
    { role, settings },
  );

const save = (s: Session, payload: Record<string, unknown>) =>
  s.inject({ method: "POST", url: "/api/surveyresults", payload });
const requestId = () => `req-${objectId()}`;

describe("POST /api/surveyresults", () => {
  test("answers the new id of a first save, pinned to the survey's version", async () => {
    const { s, patient } = await clinic();
    const res = await save(s, {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: patient.id,
      answers: { a: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json<{ id: string }>();
    const read = await s.inject({ method: "GET", url: `/api/surveyresults/${id}` });
    expect(read.json<SurveyResult>()).toMatchObject({
      id,
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      surveyTitle: "Core Care Wellness Exam",
      surveyVersion: 1,
      patientId: patient.id,
      patientName: "Ruth Bader",
      isSubmitted: false,
      answers: { a: 1 },
    });
    expect(read.headers["cache-control"]).toBe("no-store");
  });

  test("answers the same id to a retried save with the same client request id and stores one row", async () => {
    const { u, s, patient } = await clinic();
    const payload = {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: patient.id,
      answers: { a: 1 },
    };
    const [a, b] = await Promise.all([save(s, payload), save(s, payload)]);
    const c = await save(s, payload);
    const ids = [a, b, c].map((r) => r.json<{ id: string }>().id);
    expect(new Set(ids).size).toBe(1);
    const rows = await t.db.select().from(surveyResults).where(eq(surveyResults.tenantId, u.tenantId));
    expect(rows).toHaveLength(1);
  });

  test("replaces the answers on later saves and refuses changes once submitted", async () => {
    const { s, patient } = await clinic();
    const first = await save(s, {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: patient.id,
      answers: { p1: "x" },
    });
    const { id } = first.json<{ id: string }>();
    const base = { id, surveyId: CORE_CARE_WELLNESS_EXAM_ID, patientId: patient.id };
    expect(
      (await save(s, { ...base, clientRequestId: requestId(), answers: { p1: "x", p2: "y" } })).statusCode,
    ).toBe(200);
    const submit = {
      ...base,
      clientRequestId: requestId(),
      isSubmitted: true,
      answers: complete({ p1: "x", p2: "y", p3: "z" }),
    };
    expect((await save(s, submit)).statusCode).toBe(200);
    expect((await save(s, submit)).json()).toEqual({ id });
    const change = await save(s, {
      ...base,
      clientRequestId: requestId(),
      isSubmitted: true,
      answers: complete({ p1: "changed" }),
    });
    expect(change.statusCode).toBe(409);
    const reopen = await save(s, {
      ...base,
      clientRequestId: requestId(),
      isSubmitted: false,
      answers: { p1: "x" },
    });
    expect(reopen.statusCode).toBe(409);
    const read = await s.inject({ method: "GET", url: `/api/surveyresults/${id}` });
    expect(read.json<SurveyResult>()).toMatchObject({
      isSubmitted: true,
      answers: { p1: "x", p2: "y", p3: "z" },
    });
  });

  test("stays pinned to the version it was taken on after the survey changes", async () => {
    const { s, patient } = await clinic("admin");
    const res = await save(s, {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: patient.id,
      answers: {},
    });
    const survey = await s.inject({ method: "GET", url: `/api/surveys/${CORE_CARE_WELLNESS_EXAM_ID}` });
    await s.inject({
      method: "POST",
      url: `/api/surveys/${CORE_CARE_WELLNESS_EXAM_ID}`,
      payload: { ...survey.json<object>(), title: "Renamed exam" },
    });
    const read = await s.inject({
      method: "GET",
      url: `/api/surveyresults/${res.json<{ id: string }>().id}`,
    });
    expect(read.json<SurveyResult>()).toMatchObject({
      surveyVersion: 1,
      surveyTitle: "Core Care Wellness Exam",
    });
  });

  test("raises a safety alert when a submitted PHQ-9 reports thoughts of self-harm", async () => {
    const { u, s, patient } = await clinic();
    const answers = {
      depression: {
        phq9LittleInterest: "several days",
        phq9Hopeless: "nearly every day",
        phq9SelfHarm: "several days",
      },
    };
    const res = await save(s, {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: patient.id,
      isSubmitted: true,
      answers: complete(answers),
    });
    const { id } = res.json<{ id: string }>();
    const rows = await t.db
      .select()
      .from(safetyAlerts)
      .where(and(eq(safetyAlerts.tenantId, u.tenantId), eq(safetyAlerts.resultId, id)));
    expect(rows.map((r) => r.kind)).toEqual(["phq9-self-harm"]);
    const alerts = await s.inject({ method: "GET", url: "/api/alerts" });
    expect(alerts.json<SafetyAlert[]>().map((a) => a.resultId)).toEqual([id]);
  });

  test("e-mails the practice's safety address about an alert the submission opened, without patient data", async () => {
    const { s, patient } = await clinic("user", { safetyAlertEmail: "safety@practice.test" });
    const res = await save(s, {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: patient.id,
      isSubmitted: true,
      answers: complete({
        depression: { phq9LittleInterest: "not at all", phq9SelfHarm: "nearly every day" },
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json<{ id: string }>();
    const mailed = () => outboxMessages(t.config.dataDir).filter((m) => m.includes(`/results/${id}`));
    await expect.poll(() => mailed().length).toBe(1);
    const [message = ""] = mailed();
    expect(message).toContain("To: safety@practice.test");
    expect(message).toContain("Subject: Core Care safety alert: PHQ-9 item 9 positive");
    expect(message).not.toMatch(/Ruth|Bader/);
  });

  test.each([
    [{ clientRequestId: "short" }, "clientRequestId"],
    [{ patientId: "nope" }, "patientId"],
    [{ surveyId: "../../etc" }, "surveyId"],
    [{ isSubmitted: "yes" }, "isSubmitted"],
    [{ answers: [1, 2] }, "answers"],
    [{ id: "123" }, "id"],
  ])("answers 400 for %j naming %s and stores nothing", async (over, field) => {
    const { u, s, patient } = await clinic();
    const res = await save(s, {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: patient.id,
      answers: {},
      ...over,
    });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toContain(field);
    expect(
      await t.db.select().from(surveyResults).where(eq(surveyResults.tenantId, u.tenantId)),
    ).toHaveLength(0);
  });

  test("answers 404 for another tenant's patient or result and changes nothing", async () => {
    const a = await clinic();
    const b = await clinic("admin");
    const own = await save(a.s, {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: a.patient.id,
      answers: { k: 1 },
    });
    const { id } = own.json<{ id: string }>();
    const foreignPatient = await save(b.s, {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: a.patient.id,
      answers: {},
    });
    expect(foreignPatient.statusCode).toBe(404);
    const foreignResult = await save(b.s, {
      id,
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: b.patient.id,
      answers: { k: 2 },
    });
    expect(foreignResult.statusCode).toBe(404);
    expect((await b.s.inject({ method: "GET", url: `/api/surveyresults/${id}` })).statusCode).toBe(404);
    expect((await b.s.inject({ method: "DELETE", url: `/api/surveyresults/${id}` })).statusCode).toBe(404);
    expect(
      (await a.s.inject({ method: "GET", url: `/api/surveyresults/${id}` })).json<SurveyResult>().answers,
    ).toEqual({ k: 1 });
  });

  test("saves arriving together each get their own result, audit event and answer", async () => {
    const { u, s, patient } = await clinic();
    const other = await clinic();
    const shared = requestId();
    const payload = (clientRequestId: string, patientId = patient.id) => ({
      clientRequestId,
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId,
      answers: { n: clientRequestId },
    });
    // One burst: twenty new results, a retry pair, another tenant's patient and an unknown survey.
    const responses = await Promise.all([
      ...Array.from({ length: 20 }, () => save(s, payload(requestId()))),
      save(s, payload(shared)),
      save(s, payload(shared)),
      save(s, payload(requestId(), other.patient.id)),
      save(s, { ...payload(requestId()), surveyId: objectId() }),
    ]);
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses).toEqual([...Array<number>(22).fill(200), 404, 404]);
    const ids = responses.slice(0, 22).map((r) => r.json<{ id: string }>().id);
    expect(ids[20]).toBe(ids[21]);
    expect(new Set(ids).size).toBe(21);
    const rows = await t.db.select().from(surveyResults).where(eq(surveyResults.tenantId, u.tenantId));
    expect(rows).toHaveLength(21);
    for (const row of rows) expect(row.answers).toEqual({ n: row.clientRequestId });
    const audited = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, u.tenantId), eq(auditEvents.entity, "survey-result")));
    expect(audited.map((e) => e.entityId).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(new Set(audited.map((e) => e.action))).toEqual(new Set(["create"]));
    const foreign = await t.db
      .select()
      .from(surveyResults)
      .where(eq(surveyResults.tenantId, other.u.tenantId));
    expect(foreign).toHaveLength(0);
  });

  test("changes arriving together for different results are each saved, and a submitted one refuses", async () => {
    const { s, patient } = await clinic();
    const created = await Promise.all(
      [1, 2, 3].map(() =>
        save(s, {
          clientRequestId: requestId(),
          surveyId: CORE_CARE_WELLNESS_EXAM_ID,
          patientId: patient.id,
          answers: { v: 0 },
        }),
      ),
    );
    const [a, b, c] = created.map((r) => r.json<{ id: string }>().id) as [string, string, string];
    const change = (id: string, v: number, isSubmitted = false) =>
      save(s, {
        id,
        clientRequestId: requestId(),
        surveyId: CORE_CARE_WELLNESS_EXAM_ID,
        patientId: patient.id,
        isSubmitted,
        answers: isSubmitted ? complete({ v }) : { v },
      });
    expect((await change(c, 1, true)).statusCode).toBe(200);
    const responses = await Promise.all([
      change(a, 2),
      change(b, 3, true),
      change(c, 4),
      change(objectId(), 5),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 409, 404]);
    const answersOf = async (id: string) =>
      (await s.inject({ method: "GET", url: `/api/surveyresults/${id}` })).json<SurveyResult>();
    expect(await answersOf(a)).toMatchObject({ answers: { v: 2 }, isSubmitted: false });
    expect(await answersOf(b)).toMatchObject({ answers: { v: 3 }, isSubmitted: true });
    expect(await answersOf(c)).toMatchObject({ answers: { v: 1 }, isSubmitted: true });
  });

  test.each([
    ["a choice the survey does not offer", { health: { general: "superb" } }, "answers.health.general"],
    ["a word for a number", { health: { painScore: "eleven" } }, "answers.health.painScore"],
    ["a number out of range", { health: { painScore: "11" } }, "answers.health.painScore"],
    [
      "two answers to a one-answer question",
      { health: { general: ["good", "fair"] } },
      "answers.health.general",
    ],
  ])("refuses %s with 400 naming the field and stores nothing", async (_name, answers, field) => {
    const { u, s, patient } = await clinic();
    const clientRequestId = requestId();
    const res = await save(s, {
      clientRequestId,
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: patient.id,
      answers,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(errorFields(res)).toContain(field);
    const rows = await t.db
      .select()
      .from(surveyResults)
      .where(and(eq(surveyResults.tenantId, u.tenantId), eq(surveyResults.clientRequestId, clientRequestId)));
    expect(rows).toEqual([]);
  });

  test("keeps a partial draft and refuses it as submitted until the required questions that show are answered", async () => {
    const { s, patient } = await clinic();
    const body = { surveyId: CORE_CARE_WELLNESS_EXAM_ID, patientId: patient.id };
    const draft = await save(s, {
      ...body,
      clientRequestId: requestId(),
      answers: { depression: { phq9LittleInterest: "not at all" } },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    const { id } = draft.json<{ id: string }>();
    const partial = await save(s, {
      ...body,
      id,
      clientRequestId: requestId(),
      isSubmitted: true,
      answers: { depression: { phq9LittleInterest: "not at all" } },
    });
    expect(partial.statusCode, partial.body).toBe(400);
    expect(
      partial.json<{ responseStatus: { errors: unknown[] } }>().responseStatus.errors.length,
    ).toBeGreaterThan(0);
    const read = await s.inject({ method: "GET", url: `/api/surveyresults/${id}` });
    expect(read.json<SurveyResult>().isSubmitted).toBe(false);
    const whole = await save(s, {
      ...body,
      id,
      clientRequestId: requestId(),
      isSubmitted: true,
      answers: complete({ depression: { phq9LittleInterest: "not at all" } }),
    });
    expect(whole.statusCode, whole.body).toBe(200);
  });

  test("answers 404 for an unknown survey", async () => {
    const { s, patient } = await clinic();
    const res = await save(s, {
      clientRequestId: requestId(),
      surveyId: objectId(),
      patientId: patient.id,
      answers: {},
    });
    expect(res.statusCode).toBe(404);
  });

  test("answers 401 without a session and 403 to a user with no role", async () => {
    const none = await t.createTestTenant({ role: "none" });
    const s = await login(t.app, none.email);
    expect((await s.inject({ method: "GET", url: "/api/surveyresults" })).statusCode).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/api/surveyresults" })).statusCode).toBe(401);
  });
});

describe("GET /api/surveyresults", () => {
  test("lists by duration filter and patient, newest first", async () => {
    const { u, s, patient } = await clinic();
    const other = await s.inject({
      method: "POST",
      url: "/api/patients",
      payload: { mrn: "OTHER-1", firstName: "Sonia", lastName: "S", dob: "1954-06-25", sex: "F" },
    });
    const otherId = other.json<Patient>().id;
    const ids: string[] = [];
    for (const pid of [patient.id, patient.id, otherId]) {
      const r = await save(s, {
        clientRequestId: requestId(),
        surveyId: CORE_CARE_WELLNESS_EXAM_ID,
        patientId: pid,
        answers: {},
      });
      ids.push(r.json<{ id: string }>().id);
    }
    const old = ids[0] ?? "";
    // One result taken three days ago: outside Today and Yesterday, inside All.
    await t.db
      .update(surveyResults)
      .set({ createdAt: new Date(Date.now() - 3 * 86_400_000) })
      .where(and(eq(surveyResults.tenantId, u.tenantId), eq(surveyResults.id, old)));
    const list = (q: string) => s.inject({ method: "GET", url: `/api/surveyresults?${q}` });
    const all = (await list("duration=5")).json<{ items: SurveyResultSummary[]; total: number }>();
    expect(all.total).toBe(3);
    expect(all.items.at(-1)?.id).toBe(old);
    expect((await list("duration=1")).json<{ total: number }>().total).toBe(2);
    expect((await list("duration=0")).json<{ total: number }>().total).toBe(2);
    const mine = (await list(`duration=5&patientId=${patient.id}`)).json<{ items: SurveyResultSummary[] }>();
    expect(mine.items.map((i) => i.id).sort()).toEqual([ids[0], ids[1]].sort());
    expect(mine.items[0]).toMatchObject({
      patientName: "Ruth Bader",
      surveyTitle: "Core Care Wellness Exam",
    });
  });

  test.each([
    ["duration=2", "duration"],
    ["patientId=x", "patientId"],
    ["page=-1", "page"],
  ])("answers 400 for ?%s naming %s", async (q, field) => {
    const { s } = await clinic();
    expect(errorFields(await s.inject({ method: "GET", url: `/api/surveyresults?${q}` }))).toEqual([field]);
  });

  test("never lists another tenant's results", async () => {
    const a = await clinic();
    const b = await clinic();
    await save(a.s, {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: a.patient.id,
      answers: {},
    });
    expect(
      (await b.s.inject({ method: "GET", url: "/api/surveyresults" })).json<{ total: number }>().total,
    ).toBe(0);
  });
});

describe("DELETE /api/surveyresults/{id}", () => {
  test("leaves a removed patient's results out of every page and total of the list until the patient is restored", async () => {
    const { s, patient } = await clinic("admin");
    const other = await postPatient(s, {
      mrn: `K-${objectId().slice(-6)}`,
      firstName: "Kept",
      lastName: "Here",
      dob: "1940-01-02",
      sex: "M",
    });
    const ids: Record<string, string[]> = { [patient.id]: [], [other.id]: [] };
    for (let i = 0; i < 3; i++)
      for (const p of [patient, other]) {
        const r = await save(s, {
          clientRequestId: requestId(),
          surveyId: CORE_CARE_WELLNESS_EXAM_ID,
          patientId: p.id,
          answers: { n: i },
        });
        ids[p.id]!.push(r.json<{ id: string }>().id);
      }
    const list = async (query: string) => {
      const res = await s.inject({ method: "GET", url: `/api/surveyresults?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<{ items: { id: string }[]; total: number }>();
      return { ids: page.items.map((x) => x.id).sort(), total: page.total };
    };
    const all = [...ids[patient.id]!, ...ids[other.id]!];
    expect(await list("duration=5")).toEqual({ ids: [...all].sort(), total: 6 });

    expect((await s.inject({ method: "DELETE", url: `/api/patients/${patient.id}` })).statusCode).toBe(204);
    for (const query of [
      "duration=5",
      "duration=1",
      "duration=0",
      `duration=5&surveyId=${CORE_CARE_WELLNESS_EXAM_ID}`,
    ]) {
      expect(await list(query), query).toEqual({ ids: [...ids[other.id]!].sort(), total: 3 });
    }
    expect(await list(`duration=5&patientId=${patient.id}`)).toEqual({ ids: [], total: 0 });

    expect((await s.inject({ method: "POST", url: `/api/patients/${patient.id}/restore` })).statusCode).toBe(
      200,
    );
    expect(await list("duration=5")).toEqual({ ids: [...all].sort(), total: 6 });
  });

  test("removes a result from the lists, kept for an admin to restore", async () => {
    const { u, s, patient } = await clinic("admin");
    const r = await save(s, {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: patient.id,
      answers: { kept: "yes" },
    });
    const { id } = r.json<{ id: string }>();
    const plain = await login(t.app, (await t.createTestUser(u.tenantId, { role: "user" })).email);
    expect((await plain.inject({ method: "DELETE", url: `/api/surveyresults/${id}` })).statusCode).toBe(403);

    expect((await s.inject({ method: "DELETE", url: `/api/surveyresults/${id}` })).statusCode).toBe(204);
    expect((await s.inject({ method: "GET", url: `/api/surveyresults/${id}` })).statusCode).toBe(404);
    expect(
      (await s.inject({ method: "GET", url: "/api/surveyresults" })).json<{ total: number }>().total,
    ).toBe(0);
    const removed = await s.inject({ method: "GET", url: "/api/surveyresults/removed" });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<{ items: { id: string }[] }>().items.map((x) => x.id)).toEqual([id]);
    expect((await plain.inject({ method: "POST", url: `/api/surveyresults/${id}/restore` })).statusCode).toBe(
      403,
    );
    const restored = await s.inject({ method: "POST", url: `/api/surveyresults/${id}/restore` });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(
      (await s.inject({ method: "GET", url: `/api/surveyresults/${id}` })).json<SurveyResult>().answers,
    ).toEqual({ kept: "yes" });
  });

  test("lets plain users remove results where the practice allows it", async () => {
    const { s, patient } = await clinic("user", {
      usersMay: { deleteRecords: true, resendDeliveries: false, acknowledgeAlerts: false },
    });
    const r = await save(s, {
      clientRequestId: requestId(),
      surveyId: CORE_CARE_WELLNESS_EXAM_ID,
      patientId: patient.id,
      answers: {},
    });
    const { id } = r.json<{ id: string }>();
    expect((await s.inject({ method: "DELETE", url: `/api/surveyresults/${id}` })).statusCode).toBe(204);
  });
});

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import type { Me, Patient, TabletHandover } from "@core-care/schema";
import { CORE_CARE_WELLNESS_EXAM_ID, coreCareWellnessExam, objectId } from "@core-care/survey-engine";
import { auditEvents, tabletHandovers } from "../../db/schema.js";
import { endIdleHandovers } from "../../services/handovers.js";
import { withRequiredAnswers } from "../../../test/awv-answers.js";
import {
  asSession,
  createTestApp,
  inspect,
  login,
  sessionCookie,
  TEST_PASSWORD,
  type TestApp,
  type TestTenant,
} from "../../../test/helpers.js";

let t: TestApp;
let tenant: TestTenant;
let patient: Patient;
let otherPatient: Patient;

const SURVEY = CORE_CARE_WELLNESS_EXAM_ID;

beforeAll(async () => {
  t = await createTestApp({ throttleLimits: { perAccountAndAddress: 3 } });
  tenant = await t.createTestTenant({ role: "user" });
  const staff = await login(t.app, tenant.email);
  const create = async (mrn: string) =>
    (
      await staff.inject({
        method: "POST",
        url: "/api/patients",
        payload: { mrn, firstName: "Tess", lastName: `Tablet ${mrn}`, dob: "1950-02-03", sex: "F" },
      })
    ).json<Patient>();
  patient = await create("TAB-1");
  otherPatient = await create("TAB-2");
});
afterAll(async () => {
  await t.close();
});

/** Signs staff in and hands this browser over; answers both sessions and the hand-over. */
async function handOver(surveyId = SURVEY, email = tenant.email) {
  const staff = await login(t.app, email);
  const res = await staff.inject({
    method: "POST",
    url: "/api/tablet/handovers",
    payload: { patientId: patient.id, surveyId },
  });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = sessionCookie(res);
  if (cookie === undefined) throw new Error("no patient cookie");
  return { staff, tablet: asSession(t.app, cookie, staff.me), handover: res.json<TabletHandover>() };
}

const saveBody = (handover: TabletHandover, extra: Record<string, unknown> = {}) => ({
  clientRequestId: handover.clientRequestId,
  surveyId: handover.surveyId,
  patientId: handover.patientId,
  isSubmitted: false,
  answers: { nickname: "Tess" },
  ...extra,
});

async function handoverRow(id: string) {
  const [row] = await inspect(() => t.db.select().from(tabletHandovers).where(eq(tabletHandovers.id, id)));
  return row;
}

async function auditOf(action: string, entityId: string) {
  return inspect(() =>
    t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, action), eq(auditEvents.entityId, entityId))),
  );
}

describe("POST /api/tablet/handovers", () => {
  test("ends the staff session in that browser and leaves a patient credential bound to one patient and survey", async () => {
    const { staff, tablet, handover } = await handOver();
    expect(handover).toMatchObject({
      patientId: patient.id,
      surveyId: SURVEY,
      resultId: null,
      firstName: "Tess",
      language: "en",
    });
    expect(handover.globals).toEqual({
      sex: "F",
      age: expect.any(Number) as number,
      tenant: expect.anything() as object,
    });
    expect(JSON.stringify(handover)).not.toContain("1950-02-03");
    // The first name lets the patient notice a wrong hand-over; nothing else that names them is sent.
    expect(JSON.stringify(handover)).not.toContain(patient.lastName);
    expect(tablet.cookie).not.toBe(staff.cookie);

    expect((await staff.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
    for (const url of [
      "/api/patients",
      "/api/surveyresults",
      "/api/alerts",
      "/api/users",
      "/api/users/me",
      `/api/patients/${patient.id}`,
      "/api/tenants/me",
      "/api/surveys",
      "/api/audit",
    ]) {
      const res = await tablet.inject({ method: "GET", url });
      expect([401, 403], `${url} answered ${res.statusCode}`).toContain(res.statusCode);
      expect(res.body).not.toContain(otherPatient.lastName);
    }
    expect((await tablet.inject({ method: "GET", url: `/api/surveys/${SURVEY}` })).statusCode).toBe(200);
    expect(
      (await tablet.inject({ method: "GET", url: "/api/surveys/welcome-to-medicare-exam" })).statusCode,
    ).toBe(403);
    const again = await tablet.inject({ method: "GET", url: "/api/tablet/handover" });
    expect(again.json<TabletHandover>()).toMatchObject({
      handoverId: handover.handoverId,
      dataKey: handover.dataKey,
    });
    expect(await auditOf("handover", handover.handoverId)).toHaveLength(1);
  });

  test("leaves the staff member's sessions in other browsers signed in", async () => {
    const elsewhere = await login(t.app, tenant.email);
    await handOver();
    expect((await elsewhere.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(200);
  });

  test("answers 404 for another tenant's patient and for a survey the tenant cannot read", async () => {
    const stranger = await t.createTestTenant({ role: "user" });
    const staff = await login(t.app, stranger.email);
    const foreign = await staff.inject({
      method: "POST",
      url: "/api/tablet/handovers",
      payload: { patientId: patient.id, surveyId: SURVEY },
    });
    expect(foreign.statusCode).toBe(404);
    const own = await login(t.app, tenant.email);
    const missing = await own.inject({
      method: "POST",
      url: "/api/tablet/handovers",
      payload: { patientId: patient.id, surveyId: "no-such-survey" },
    });
    expect(missing.statusCode).toBe(404);
    expect((await own.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(200);
  });
});

describe("the tablet patient credential", () => {
  test("saves and submits its own result only, and submitting ends it on the server", async () => {
    const { tablet, handover } = await handOver();
    const first = await tablet.inject({
      method: "POST",
      url: "/api/surveyresults",
      payload: saveBody(handover),
    });
    expect(first.statusCode, first.body).toBe(200);
    const { id } = first.json<{ id: string }>();
    expect((await handoverRow(handover.handoverId))?.resultId).toBe(id);

    const attacks = [
      saveBody(handover, { patientId: otherPatient.id }),
      saveBody(handover, { clientRequestId: objectId() }),
      saveBody(handover, { surveyId: "welcome-to-medicare-exam" }),
      saveBody(handover, { id: objectId() }),
    ];
    for (const payload of attacks) {
      expect((await tablet.inject({ method: "POST", url: "/api/surveyresults", payload })).statusCode).toBe(
        403,
      );
    }
    const update = await tablet.inject({
      method: "POST",
      url: "/api/surveyresults",
      payload: saveBody(handover, { id, answers: { nickname: "Tess T" } }),
    });
    expect(update.statusCode).toBe(200);
    const submit = await tablet.inject({
      method: "POST",
      url: "/api/surveyresults",
      payload: saveBody(handover, {
        id,
        isSubmitted: true,
        answers: withRequiredAnswers(coreCareWellnessExam, { nickname: "Tess T" }),
      }),
    });
    expect(submit.statusCode).toBe(200);
    expect((await tablet.inject({ method: "GET", url: "/api/tablet/handover" })).statusCode).toBe(401);
    expect(await handoverRow(handover.handoverId)).toMatchObject({ endReason: "submit", dataKey: "" });
    expect((await auditOf("handover-end", handover.handoverId))[0]?.details).toEqual({ reason: "submit" });
  });

  test("is ended by a sign-out, and by the tablet's own idle timeout", async () => {
    const first = await handOver();
    await first.tablet.inject({ method: "DELETE", url: "/api/auth/sessions" });
    expect(await handoverRow(first.handover.handoverId)).toMatchObject({ endReason: "logout" });

    const second = await handOver();
    const idle = await second.tablet.inject({ method: "DELETE", url: "/api/tablet/handover?reason=idle" });
    expect(idle.statusCode).toBe(204);
    expect(await handoverRow(second.handover.handoverId)).toMatchObject({ endReason: "idle" });
    expect((await second.tablet.inject({ method: "GET", url: "/api/tablet/handover" })).statusCode).toBe(401);
  });

  test("ends, audited, when its session has expired on the server though the browser never called again", async () => {
    const { tablet, handover } = await handOver();
    await t.db.execute(
      sql`update sessions set expire = now() - interval '1 second' where sess->>'handoverId' = ${handover.handoverId}`,
    );
    await inspect(() =>
      t.db
        .update(tabletHandovers)
        .set({ createdAt: new Date(Date.now() - 10 * 60_000) })
        .where(eq(tabletHandovers.id, handover.handoverId)),
    );
    expect(await endIdleHandovers(t.db)).toBeGreaterThanOrEqual(1);
    expect(await handoverRow(handover.handoverId)).toMatchObject({ endReason: "idle" });
    expect((await auditOf("handover-end", handover.handoverId))[0]?.details).toEqual({ reason: "idle" });
    expect((await tablet.inject({ method: "GET", url: "/api/tablet/handover" })).statusCode).toBe(401);
  });
});

describe("POST /api/tablet/handover/staff", () => {
  test("refuses a wrong password (audited), holds back guessing, and with the right one returns to staff work", async () => {
    const { tablet, handover } = await handOver();
    const wrong = await tablet.inject({
      method: "POST",
      url: "/api/tablet/handover/staff",
      payload: { password: "not the staff password at all" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ responseStatus: { errors: [{ field: "password" }] } });
    expect(await auditOf("login-failed", handover.handoverId)).toHaveLength(1);
    expect((await tablet.inject({ method: "GET", url: "/api/tablet/handover" })).statusCode).toBe(200);

    const right = await tablet.inject({
      method: "POST",
      url: "/api/tablet/handover/staff",
      payload: { password: TEST_PASSWORD },
    });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json<Me>().user.id).toBe(tenant.userId);
    const cookie = sessionCookie(right);
    if (cookie === undefined) throw new Error("no staff cookie");
    const back = asSession(t.app, cookie, right.json<Me>());
    expect((await back.inject({ method: "GET", url: "/api/patients" })).statusCode).toBe(200);
    expect((await tablet.inject({ method: "GET", url: "/api/tablet/handover" })).statusCode).toBe(401);
    expect(await handoverRow(handover.handoverId)).toMatchObject({ endReason: "staff" });
  });

  test("answers 429 after repeated wrong passwords, even to the right one", async () => {
    const colleague = await t.createTestUser(tenant.tenantId);
    const { tablet } = await handOver(SURVEY, colleague.email);
    for (let i = 0; i < 3; i++) {
      await tablet.inject({
        method: "POST",
        url: "/api/tablet/handover/staff",
        payload: { password: `guess number ${i} of many` },
      });
    }
    const held = await tablet.inject({
      method: "POST",
      url: "/api/tablet/handover/staff",
      payload: { password: TEST_PASSWORD },
    });
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers["retry-after"])).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq } from "drizzle-orm";
import { CORE_CARE_WELLNESS_EXAM_ID, coreCareWellnessExam, objectId } from "@core-care/survey-engine";
import { withRequiredAnswers } from "../../test/awv-answers.js";
import type { TabletHandover } from "@core-care/schema";
import { auditEvents, userTenants } from "../db/schema.js";
import {
  asSession,
  createTestApp,
  login,
  sessionCookie,
  TEST_PASSWORD,
  type TestApp,
  type TestTenant,
} from "../../test/helpers.js";
import { AuditWriter, NO_TENANT } from "./audit.js";
import { createInterface } from "./interfaces.js";
import { createPatient } from "./patients.js";
import { saveResult } from "./result-saves.js";

/**
 * Every security-relevant event leaves its audit row (HIPAA 164.312(b)): who, in which tenant, what,
 * whom, from where, and what changed, never a password or PHI.
 */

const XHR = { "x-requested-with": "XMLHttpRequest" };
const SURVEY = CORE_CARE_WELLNESS_EXAM_ID;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function eventsOf(tenantId: string, action: string) {
  return t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.action, action)));
}

/** The one event of an action in a tenant that matches; fails when there is none or more. */
async function theEvent(
  tenantId: string,
  action: string,
  match: (row: { entityId: string | null; ip: string | null }) => boolean = () => true,
) {
  const rows = (await eventsOf(tenantId, action)).filter(match);
  expect(rows, `${action} events in ${tenantId}`).toHaveLength(1);
  return rows[0] as (typeof rows)[number];
}

const patientOf = async (tenant: TestTenant) =>
  createPatient(t.db, tenant.tenantId, {
    mrn: `A-${objectId().slice(-8)}`,
    firstName: "Audrey",
    lastName: "Audit",
    dob: "1948-07-09",
    sex: "F",
  });

describe("sign-in and sign-out", () => {
  test("a sign-in, a failed one of a known and of an unknown e-mail, and a sign-out each leave a row", async () => {
    const user = await t.createTestTenant({ role: "user" });
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      headers: XHR,
      remoteAddress: "10.0.0.11",
      payload: { email: user.email, password: "not the password at all, clearly" },
    });
    expect(wrong.statusCode).toBe(401);
    const failed = await theEvent(user.tenantId, "login-failed");
    expect(failed).toMatchObject({ userId: user.userId, entity: "session", ip: "10.0.0.11" });
    expect(JSON.stringify(failed)).not.toContain("clearly");

    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      headers: XHR,
      remoteAddress: "10.0.0.12",
      payload: { email: `nobody-${objectId()}@example.test`, password: "not the password at all, clearly" },
    });
    expect(unknown.statusCode).toBe(401);
    const stranger = await theEvent(NO_TENANT, "login-failed", (row) => row.ip === "10.0.0.12");
    expect(stranger).toMatchObject({ userId: null, entity: "session" });
    expect(JSON.stringify(stranger)).not.toContain("nobody-");

    const session = await login(t.app, user.email);
    expect(await theEvent(user.tenantId, "login")).toMatchObject({ userId: user.userId, entity: "session" });

    const wrongCurrent = await session.inject({
      method: "PUT",
      url: "/api/users/me",
      payload: { firstName: "Test", lastName: "User", currentPassword: "a wrong current password, surely" },
    });
    expect(wrongCurrent.statusCode).toBe(400);
    expect(await theEvent(user.tenantId, "login-failed", (row) => row.ip === "127.0.0.1")).toMatchObject({
      userId: user.userId,
      entity: "password",
    });

    expect((await session.inject({ method: "DELETE", url: "/api/auth/sessions" })).statusCode).toBe(204);
    expect(await theEvent(user.tenantId, "logout")).toMatchObject({ userId: user.userId, entity: "session" });
  });
});

describe("tablet hand-over", () => {
  test("the hand-over and each way it ends leave rows: Staff button, sign-out, submit", async () => {
    const staff = await t.createTestTenant({ role: "user" });
    const patient = await patientOf(staff);
    const handOver = async () => {
      const session = await login(t.app, staff.email);
      const res = await session.inject({
        method: "POST",
        url: "/api/tablet/handovers",
        payload: { patientId: patient.id, surveyId: SURVEY },
      });
      expect(res.statusCode, res.body).toBe(201);
      const cookie = sessionCookie(res);
      if (cookie === undefined) throw new Error("no patient cookie");
      return { tablet: asSession(t.app, cookie, session.me), handover: res.json<TabletHandover>() };
    };
    const byHandover = (id: string) => (row: { entityId: string | null }) => row.entityId === id;

    const first = await handOver();
    expect(await theEvent(staff.tenantId, "handover", byHandover(first.handover.handoverId))).toMatchObject({
      userId: staff.userId,
      entity: "tablet-handover",
      details: { patientId: patient.id, surveyId: SURVEY },
    });
    const wrong = await first.tablet.inject({
      method: "POST",
      url: "/api/tablet/handover/staff",
      payload: { password: "someone guessing the staff password" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(
      await theEvent(staff.tenantId, "login-failed", byHandover(first.handover.handoverId)),
    ).toMatchObject({
      userId: staff.userId,
      entity: "tablet-handover",
    });
    const back = await first.tablet.inject({
      method: "POST",
      url: "/api/tablet/handover/staff",
      payload: { password: TEST_PASSWORD },
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(
      await theEvent(staff.tenantId, "handover-end", byHandover(first.handover.handoverId)),
    ).toMatchObject({
      userId: staff.userId,
      details: { reason: "staff" },
    });

    const second = await handOver();
    expect((await second.tablet.inject({ method: "DELETE", url: "/api/tablet/handover" })).statusCode).toBe(
      204,
    );
    expect(
      await theEvent(staff.tenantId, "handover-end", byHandover(second.handover.handoverId)),
    ).toMatchObject({
      details: { reason: "logout" },
    });

    const third = await handOver();
    const submit = await third.tablet.inject({
      method: "POST",
      url: "/api/surveyresults",
      payload: {
        clientRequestId: third.handover.clientRequestId,
        surveyId: SURVEY,
        patientId: patient.id,
        isSubmitted: true,
        answers: withRequiredAnswers(coreCareWellnessExam),
      },
    });
    expect(submit.statusCode, submit.body).toBe(200);
    expect(
      await theEvent(staff.tenantId, "handover-end", byHandover(third.handover.handoverId)),
    ).toMatchObject({
      details: { reason: "submit" },
    });
  });
});

describe("users and roles", () => {
  test("creating, inviting, renaming, changing the roles of and removing a user name who, whom, from and to", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const session = await login(t.app, admin.email);
    const created = await session.inject({
      method: "POST",
      url: "/api/users",
      payload: { firstName: "Nora", lastName: "New", email: `nora-${objectId()}@example.test`, roles: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const userId = created.json<{ id: string }>().id;
    const whom = (row: { entityId: string | null }) => row.entityId === userId;
    expect(await theEvent(admin.tenantId, "create", whom)).toMatchObject({
      userId: admin.userId,
      entity: "user",
      details: { roles: ["user"] },
    });

    const promoted = await session.inject({
      method: "PUT",
      url: `/api/users/${userId}`,
      payload: { firstName: "Nora", lastName: "New", roles: 3 },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(await theEvent(admin.tenantId, "roles", whom)).toMatchObject({
      userId: admin.userId,
      entity: "user",
      details: { from: ["user"], to: ["user", "admin"] },
    });

    const renamed = await session.inject({
      method: "PUT",
      url: `/api/users/${userId}`,
      payload: { firstName: "Nora", lastName: "Newer", roles: 3 },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await theEvent(admin.tenantId, "update", whom)).toMatchObject({
      userId: admin.userId,
      details: { from: { firstName: "Nora", lastName: "New" }, to: { firstName: "Nora", lastName: "Newer" } },
    });

    expect((await session.inject({ method: "DELETE", url: `/api/users/${userId}` })).statusCode).toBe(204);
    expect(await theEvent(admin.tenantId, "delete", whom)).toMatchObject({
      userId: admin.userId,
      entity: "user",
      details: { roles: ["user", "admin"] },
    });

    const elsewhere = await t.createTestTenant({ role: "user" });
    const invited = await session.inject({
      method: "POST",
      url: "/api/users",
      payload: { firstName: "Elsa", lastName: "Where", email: elsewhere.email, roles: 1 },
    });
    expect(invited.statusCode, invited.body).toBe(202);
    expect(
      await theEvent(admin.tenantId, "invite", (row) => row.entityId === elsewhere.userId),
    ).toMatchObject({ userId: admin.userId, details: { roles: ["user"] } });
  });

  test("a tenant switch leaves a row in the tenant left and in the tenant entered", async () => {
    const a = await t.createTestTenant({ role: "user" });
    const b = await t.createTestTenant({ role: "user" });
    await t.db.insert(userTenants).values({ tenantId: b.tenantId, userId: a.userId, roles: 1 });
    const session = await login(t.app, a.email);
    const res = await session.inject({
      method: "PUT",
      url: "/api/users/me/tenant",
      payload: { tenantId: b.tenantId },
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const tenantId of [a.tenantId, b.tenantId]) {
      expect(await theEvent(tenantId, "switch-tenant", (row) => row.ip === "127.0.0.1")).toMatchObject({
        userId: a.userId,
        details: { from: a.tenantId, to: b.tenantId },
      });
    }
  });
});

describe("permission refusals", () => {
  test("a refused staff member, patient credential and caller without a credential each leave a row", async () => {
    const user = await t.createTestTenant({ role: "user" });
    const session = await login(t.app, user.email);
    expect((await session.inject({ method: "GET", url: "/api/audit" })).statusCode).toBe(403);
    expect(await theEvent(user.tenantId, "denied", (row) => row.entityId === "GET /api/audit")).toMatchObject(
      {
        userId: user.userId,
        entity: "route",
        details: { status: 403, credential: "staff" },
      },
    );

    const patient = await patientOf(user);
    const handover = await session.inject({
      method: "POST",
      url: "/api/tablet/handovers",
      payload: { patientId: patient.id, surveyId: SURVEY },
    });
    const cookie = sessionCookie(handover);
    if (cookie === undefined) throw new Error("no patient cookie");
    const tablet = asSession(t.app, cookie, session.me);
    expect((await tablet.inject({ method: "GET", url: `/api/patients/${patient.id}` })).statusCode).toBe(403);
    expect(
      await theEvent(user.tenantId, "denied", (row) => row.entityId === "GET /api/patients/:id"),
    ).toMatchObject({ userId: null, details: { status: 403, credential: "tablet" } });

    const anonymous = await t.app.inject({ method: "GET", url: "/api/patients", remoteAddress: "10.0.0.21" });
    expect(anonymous.statusCode).toBe(401);
    expect(await theEvent(NO_TENANT, "denied", (row) => row.ip === "10.0.0.21")).toMatchObject({
      userId: null,
      entityId: "GET /api/patients",
      details: { status: 401, credential: "none" },
    });
  });
});

describe("reads, downloads and exports of PHI", () => {
  test("reading a patient or result, sending and resending a result, a batch upload and a Tele-AWV e-mail each leave a row", async () => {
    const admin = await t.createTestTenant({ role: "admin", settings: { teleAwvEmail: true } });
    const session = await login(t.app, admin.email);
    const patient = await patientOf(admin);
    const { id: resultId } = await saveResult(
      t.db,
      admin.tenantId,
      {
        clientRequestId: objectId(),
        surveyId: SURVEY,
        patientId: patient.id,
        isSubmitted: true,
        answers: {},
      },
      admin.userId,
    );
    const iface = await createInterface(t.db, admin.tenantId, {
      name: "EHR",
      type: "hl7-mllp",
      host: "127.0.0.1",
      port: 1,
      sendingApplication: "",
      sendingFacility: "",
      receivingApplication: "",
      receivingFacility: "",
    });
    const by = (row: { userId: string | null }) => row.userId === admin.userId;

    expect((await session.inject({ method: "GET", url: `/api/patients/${patient.id}` })).statusCode).toBe(
      200,
    );
    expect(await theEvent(admin.tenantId, "read", (row) => row.entityId === patient.id)).toMatchObject({
      userId: admin.userId,
      entity: "patient",
    });
    expect((await session.inject({ method: "GET", url: `/api/surveyresults/${resultId}` })).statusCode).toBe(
      200,
    );
    expect(await theEvent(admin.tenantId, "read", (row) => row.entityId === resultId)).toMatchObject({
      userId: admin.userId,
      entity: "survey-result",
    });

    const sent = await session.inject({
      method: "POST",
      url: `/api/surveyresults/${resultId}/sendhl7`,
      payload: { interfaceId: iface.id },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    const { deliveryId } = sent.json<{ deliveryId: string }>();
    expect(await theEvent(admin.tenantId, "send", (row) => row.entityId === deliveryId)).toMatchObject({
      userId: admin.userId,
      entity: "delivery",
    });
    const resent = await session.inject({ method: "POST", url: `/api/deliveries/${deliveryId}/resend` });
    expect(resent.statusCode, resent.body).toBe(202);
    const again = resent.json<{ deliveryId: string }>().deliveryId;
    expect(await theEvent(admin.tenantId, "send", (row) => row.entityId === again)).toMatchObject({
      userId: admin.userId,
      entity: "delivery",
    });

    const upload = await session.inject({
      method: "POST",
      url: "/api/surveyresults/batchUpload",
      payload: {
        format: "json",
        content: JSON.stringify([
          { externalId: "x-1", patientId: patient.id, surveyId: SURVEY, answers: {} },
        ]),
      },
    });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(await theEvent(admin.tenantId, "create", (row) => row.entityId === null)).toMatchObject({
      userId: admin.userId,
      entity: "survey-result-batch",
    });

    const mailed = await session.inject({
      method: "POST",
      url: "/api/auth/sendAWVEmail",
      payload: { ptEmail: "audrey@example.test", tenant: admin.tenantId, ptId: patient.id },
    });
    expect(mailed.statusCode, mailed.body).toBe(200);
    const invitation = (await eventsOf(admin.tenantId, "send")).filter(
      (row) => by(row) && row.entity === "awv-invitation",
    );
    expect(invitation).toHaveLength(1);
    expect(JSON.stringify(invitation)).not.toContain("audrey@");
  });
});

describe("events written together", () => {
  test("events arriving at once share one statement and each keeps every field as given", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const writer = new AuditWriter(t.database.execute);
    // What an array literal would break on: quotes, backslashes, braces, commas, the word NULL, empty text.
    const awkward = ['say "hi"', "back\\slash", "{brace}", "a,b", "NULL", "", "Zoë 漢字"];
    const entries = Array.from({ length: 40 }, (_, i) => ({
      tenantId: admin.tenantId,
      userId: i % 3 === 0 ? null : admin.userId,
      action: "list" as const,
      entity: `batch-${awkward[i % awkward.length]}`,
      entityId: i % 2 === 0 ? null : `id-${i}-${awkward[i % awkward.length]}`,
      ip: i % 5 === 0 ? null : `10.0.0.${i}`,
      details:
        i % 4 === 0
          ? undefined
          : { n: i, text: awkward[i % awkward.length], nested: { list: [1, "two", null] } },
    }));
    await Promise.all(entries.map((entry) => writer.write(entry)));
    const rows = await eventsOf(admin.tenantId, "list");
    const written = rows.filter((row) => row.entity.startsWith("batch-"));
    expect(written).toHaveLength(entries.length);
    // All arrived before the first run started: one statement, so one statement time.
    expect(new Set(written.map((row) => row.at.getTime())).size).toBe(1);
    expect(new Set(written.map((row) => row.id)).size).toBe(entries.length);
    const key = (row: {
      entity: string;
      entityId: string | null | undefined;
      ip: string | null | undefined;
    }) => `${row.entity}|${row.entityId ?? "-"}|${row.ip ?? "-"}`;
    const byKey = new Map(written.map((row) => [key(row), row]));
    for (const entry of entries) {
      const row = byKey.get(key(entry));
      expect(row, key(entry)).toBeDefined();
      expect(row).toMatchObject({
        userId: entry.userId,
        entityId: entry.entityId,
        ip: entry.ip,
        details: entry.details ?? null,
      });
    }
  });
});

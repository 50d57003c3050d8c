import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import type { AuditEvent, Patient, SafetyAlert, TabletHandover } from "@core-care/schema";
import { CORE_CARE_WELLNESS_EXAM_ID, coreCareWellnessExam, objectId } from "@core-care/survey-engine";
import { auditEvents, users } from "../../db/schema.js";
import { createTestApp, errorFields, login, type TestApp } from "../../../test/helpers.js";
import { withRequiredAnswers } from "../../../test/awv-answers.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("GET /api/audit", () => {
  test("shows an admin who read and changed which patient, without PHI", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    const p = (
      await s.inject({
        method: "POST",
        url: "/api/patients",
        payload: { mrn: "AU-1", firstName: "Marie", lastName: "Curie", dob: "1867-11-07", sex: "F" },
      })
    ).json<Patient>();
    await s.inject({ method: "GET", url: `/api/patients/${p.id}` });
    const res = await s.inject({ method: "GET", url: "/api/audit" });
    expect(res.statusCode).toBe(200);
    const items = res.json<{ items: AuditEvent[] }>().items;
    expect(items.slice(0, 3).map((e) => [e.action, e.entity])).toEqual([
      ["read", "patient"],
      ["create", "patient"],
      ["login", "session"],
    ]);
    expect(items[0]).toMatchObject({ userId: admin.userId, entityId: p.id, tenantId: admin.tenantId });
    expect(res.body).not.toContain("Curie");
  });

  test("shows only the admin's tenant", async () => {
    const a = await t.createTestTenant({ role: "admin" });
    const b = await t.createTestTenant({ role: "admin" });
    await login(t.app, b.email);
    const s = await login(t.app, a.email);
    const items = (await s.inject({ method: "GET", url: "/api/audit" })).json<{ items: AuditEvent[] }>()
      .items;
    expect(items.every((e) => e.tenantId === a.tenantId)).toBe(true);
  });

  test("answers 403 to a user and 400 for a bad page", async () => {
    const u = await t.createTestTenant({ role: "user" });
    const s = await login(t.app, u.email);
    expect((await s.inject({ method: "GET", url: "/api/audit" })).statusCode).toBe(403);
    const admin = await t.createTestTenant({ role: "admin" });
    const sa = await login(t.app, admin.email);
    expect(errorFields(await sa.inject({ method: "GET", url: "/api/audit?page=0" }))).toEqual(["page"]);
  });
});

describe("GET /api/audit filters", () => {
  test("by patient: the patient's record, results, safety alerts and hand-overs, not another patient's", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    const create = async (mrn: string) =>
      (
        await s.inject({
          method: "POST",
          url: "/api/patients",
          payload: { mrn, firstName: "Ada", lastName: "Lovelace", dob: "1915-12-10", sex: "F" },
        })
      ).json<Patient>();
    const mine = await create("PF-1");
    const other = await create("PF-2");
    const save = async (patientId: string) => {
      const saved = await s.inject({
        method: "POST",
        url: "/api/surveyresults",
        payload: {
          clientRequestId: objectId(),
          surveyId: CORE_CARE_WELLNESS_EXAM_ID,
          patientId,
          isSubmitted: true,
          answers: withRequiredAnswers(coreCareWellnessExam, {
            depression: { phq9LittleInterest: "several days", phq9SelfHarm: "several days" },
          }),
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      return saved.json<{ id: string }>().id;
    };
    const resultId = await save(mine.id);
    await save(other.id);
    const alerts = (await s.inject({ method: "GET", url: "/api/alerts" })).json<SafetyAlert[]>();
    for (const alert of alerts)
      await s.inject({ method: "POST", url: `/api/alerts/${alert.id}/acknowledge` });
    const myAlert = alerts.find((a) => a.patientId === mine.id);
    await s.inject({ method: "GET", url: `/api/patients/${other.id}` });
    await s.inject({ method: "GET", url: `/api/surveyresults/${resultId}` });
    // A tablet handed over to each patient, from sessions of their own.
    const handovers: string[] = [];
    for (const patientId of [mine.id, other.id]) {
      const tablet = await login(t.app, admin.email);
      const res = await tablet.inject({
        method: "POST",
        url: "/api/tablet/handovers",
        payload: { patientId, surveyId: CORE_CARE_WELLNESS_EXAM_ID },
      });
      expect(res.statusCode, res.body).toBe(201);
      handovers.push(res.json<TabletHandover>().handoverId);
    }

    const res = await s.inject({ method: "GET", url: `/api/audit?patientId=${mine.id}` });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json<{ items: AuditEvent[]; total: number }>().items;
    expect(items.map((e) => [e.action, e.entity, e.entityId])).toEqual([
      ["handover", "tablet-handover", handovers[0]],
      ["read", "survey-result", resultId],
      ["update", "safety-alert", myAlert?.id],
      ["submit", "survey-result", resultId],
      ["create", "patient", mine.id],
    ]);
  });

  test("by user text, action and period, each event naming who in words", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const colleague = await t.createTestUser(admin.tenantId, { role: "user" });
    await login(t.app, colleague.email);
    const s = await login(t.app, admin.email);
    const list = async (query: string) => {
      const res = await s.inject({ method: "GET", url: `/api/audit?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ items: AuditEvent[]; total: number }>();
    };

    // A part of the e-mail, in another case: the colleague's id ends it, unlike the admin's.
    const byColleague = await list(`user=${encodeURIComponent(`${colleague.userId.slice(-6)}@EXAMPLE`)}`);
    expect(byColleague.items.map((e) => [e.userId, e.action])).toEqual([[colleague.userId, "login"]]);
    expect(byColleague.items[0]?.user).toEqual({
      name: expect.stringMatching(/^Test User/) as string,
      email: colleague.email,
    });
    // LIKE wildcards are taken literally.
    expect((await list("user=%25")).total).toBe(0);

    const logins = await list("action=login");
    expect(logins.items.map((e) => e.userId).sort()).toEqual([admin.userId, colleague.userId].sort());

    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list(`from=${encodeURIComponent(future)}`)).total).toBe(0);
    expect((await list(`to=${encodeURIComponent(future)}&action=login`)).total).toBe(2);
    expect((await list("to=2000-01-01")).total).toBe(0);
  });

  test("answers 400 naming a malformed filter", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    for (const [query, field] of [
      ["patientId=nope", "patientId"],
      ["from=yesterday", "from"],
      ["action=DROP%20TABLE", "action"],
    ] as const) {
      const res = await s.inject({ method: "GET", url: `/api/audit?${query}` });
      expect(errorFields(res), query).toEqual([field]);
    }
  });
});

describe("GET /api/audit/export", () => {
  test("answers the filtered events as CSV, with formula cells neutralised, and audits the export", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    // A name typed by a person can start like a formula; the CSV must show it as text.
    await t.db
      .update(users)
      .set({ firstName: '=HYPERLINK("http://evil.test")', lastName: "-2+3" })
      .where(eq(users.id, admin.userId));
    await s.inject({ method: "GET", url: "/api/users" });

    const res = await s.inject({ method: "GET", url: "/api/audit/export?action=list" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe("When (UTC),User,E-mail,Action,Record,Record id,From,Details");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.test"") -2+3",${admin.email},list,user,`);
    expect(lines[2]).toBe("");

    const trail = (await s.inject({ method: "GET", url: "/api/audit?action=export" })).json<{
      items: AuditEvent[];
    }>();
    expect(trail.items[0]).toMatchObject({
      entity: "audit-log",
      details: { action: "list", scope: "tenant" },
    });
  });

  test("reads past one batch without skipping or repeating an event", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    // Many events in the same microsecond order by id alone.
    const at = new Date();
    await t.db.insert(auditEvents).values(
      Array.from({ length: 2_050 }, () => ({
        tenantId: admin.tenantId,
        id: objectId(),
        userId: admin.userId,
        action: "read",
        entity: "patient",
        entityId: objectId(),
        at,
      })),
    );
    const res = await s.inject({ method: "GET", url: "/api/audit/export?action=read" });
    const ids = res.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n")
      .slice(1)
      .map((line) => line.split(",")[5]);
    expect(ids).toHaveLength(2_050);
    expect(new Set(ids).size).toBe(2_050);
  });

  test("is refused to a user", async () => {
    const u = await t.createTestTenant({ role: "user" });
    const s = await login(t.app, u.email);
    expect((await s.inject({ method: "GET", url: "/api/audit/export" })).statusCode).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import {
  BUILTIN_SURVEYS,
  CORE_CARE_WELLNESS_EXAM_ID,
  TELE_AWV_SURVEY_ID,
  teleAwvSurvey,
  validateSurvey,
} from "@core-care/survey-engine";
import type {
  Interface,
  Me,
  Patient,
  ReportSummary,
  SafetyAlert,
  SurveyResult,
  SurveyResultSummary,
  SurveySummary,
  Tenant,
} from "@core-care/schema";
import { createTestApp, inspect, login, TEST_PASSWORD, type TestApp } from "../test/helpers.js";
import { DEMO_INTERFACE_ID, pointDemoInterface, seedDemoData } from "./seed.js";
import { startDemoReceiver } from "./delivery/demo-receiver.js";
import { deliveries, safetyAlerts, surveyResults, tenants, users } from "./db/schema.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { seedOnStart: true } });
});
afterAll(async () => {
  await t.close();
});

describe("seedDemoData", () => {
  test("seeds the demo users with their roles, all signing in with the demo password", async () => {
    const expected: [string, number, string][] = [
      ["staff@demo.test", 1, "demo"],
      ["admin@demo.test", 2, "demo"],
      ["sysadmin@demo.test", 4, "demo"],
      ["multi@demo.test", 1, "multi"],
    ];
    for (const [email, roles, tenant] of expected) {
      const s = await login(t.app, email, TEST_PASSWORD);
      expect(s.me.user).toMatchObject({ email, roles, tenant });
    }
    const multi = await login(t.app, "multi@demo.test", TEST_PASSWORD);
    expect(multi.me.user.tenants).toEqual(["demo", "demo2"]);
  });

  test("seeds the tenants with their settings", async () => {
    const rows = await t.db.select().from(tenants);
    const byId = new Map(rows.map((r) => [r.id, r.settings]));
    expect(byId.get("demo")).toMatchObject({ teleAwvEmail: true, alternateFalls: false });
    expect(byId.has("demo2")).toBe(true);
    for (const id of ["sc-duncan-corecarefp", "tx-plano-btpa", "localhost"]) {
      expect(byId.get(id)).toMatchObject({ alternateFalls: true });
    }
  });

  test("seeds patients, the built-in surveys and a sample report in demo", async () => {
    const s = await login(t.app, "staff@demo.test", TEST_PASSWORD);
    const patients = (await s.inject({ method: "GET", url: "/api/patients" })).json<{ items: Patient[] }>();
    expect(patients.items.length).toBeGreaterThanOrEqual(3);
    const surveys = (await s.inject({ method: "GET", url: "/api/surveys" })).json<{
      items: SurveySummary[];
    }>();
    expect(surveys.items.map((x) => x.id).sort()).toEqual(BUILTIN_SURVEYS.map((x) => x.id).sort());
    const reports = (await s.inject({ method: "GET", url: "/api/tenants/demo/reports" })).json<{
      items: ReportSummary[];
    }>();
    expect(reports.items.map((r) => r.title)).toEqual(["AWV Summary"]);
    const tenant = (await s.inject({ method: "GET", url: "/api/tenants/me" })).json<Tenant>();
    expect(tenant.id).toBe("demo");
    expect((await s.inject({ method: "GET", url: "/api/users/me" })).json<Me>().tenant.id).toBe("demo");
  });

  test("seeds a day of work: tablet and Tele-AWV results, one open safety alert, an assigned survey", async () => {
    const s = await login(t.app, "staff@demo.test", TEST_PASSWORD);
    const results = (await s.inject({ method: "GET", url: "/api/surveyresults?duration=5" })).json<{
      items: SurveyResultSummary[];
    }>().items;
    const seen = results
      .map((r) => [r.patientName, r.surveyId, r.isSubmitted] as const)
      .sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));
    expect(seen).toEqual([
      ["Eleanor Rigby", TELE_AWV_SURVEY_ID, true],
      ["Eleanor Rigby", CORE_CARE_WELLNESS_EXAM_ID, true],
      ["Rosa Delgado", TELE_AWV_SURVEY_ID, true],
      ["Walter Hobbs", CORE_CARE_WELLNESS_EXAM_ID, false],
    ]);
    // The Tele-AWV answers are complete: the questionnaire's own validation finds nothing missing.
    const rigby = results.find((r) => r.patientName === "Eleanor Rigby" && r.surveyId === TELE_AWV_SURVEY_ID);
    const full = (
      await s.inject({ method: "GET", url: `/api/surveyresults/${rigby?.id}` })
    ).json<SurveyResult>();
    const answers = { ...full.answers, ptS: "true", ptPY: "true", pt100: "true" };
    expect(validateSurvey(teleAwvSurvey, answers)).toEqual([]);

    const alerts = (await s.inject({ method: "GET", url: "/api/alerts" })).json<SafetyAlert[]>();
    expect(alerts.map((a) => a.kind)).toEqual(["phq9-self-harm"]);
    const hobbs = results.find((r) => r.patientName === "Walter Hobbs");
    const assigned = (
      await s.inject({ method: "GET", url: `/api/patients/${hobbs?.patientId}/surveys` })
    ).json<{ surveyId: string }[]>();
    expect(assigned.map((a) => a.surveyId)).toEqual([CORE_CARE_WELLNESS_EXAM_ID]);
  });

  test("seeds an HL7 interface that the local demo receiver acknowledges, with one delivery queued to it", async () => {
    const receiver = await startDemoReceiver();
    try {
      await pointDemoInterface(t.db, receiver.port);
      const s = await login(t.app, "staff@demo.test", TEST_PASSWORD);
      const iface = (
        await s.inject({ method: "GET", url: `/api/interfaces/${DEMO_INTERFACE_ID}` })
      ).json<Interface>();
      expect(iface).toMatchObject({ type: "hl7-mllp", host: "127.0.0.1", port: receiver.port });
      expect(await t.app.deliveryWorker.runOnce()).toBe(1);
      const rows = await inspect(() =>
        t.db.select().from(deliveries).where(eq(deliveries.interfaceId, DEMO_INTERFACE_ID)),
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: "delivered", attempts: 1 });
      expect(rows[0]?.ack).toContain(`MSA|AA|${rows[0]?.controlId}`);
      expect(receiver.acknowledged()).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  test("changes nothing when run again", async () => {
    const before = await t.db.select().from(users);
    const resultsBefore = await inspect(() => t.db.select({ id: surveyResults.id }).from(surveyResults));
    const alertsBefore = await inspect(() => t.db.select({ id: safetyAlerts.id }).from(safetyAlerts));
    const deliveriesBefore = await inspect(() => t.db.select({ id: deliveries.id }).from(deliveries));
    await seedDemoData(t.db, "another password entirely");
    const after = await t.db.select().from(users);
    expect(after).toEqual(before);
    expect(await inspect(() => t.db.select({ id: surveyResults.id }).from(surveyResults))).toEqual(
      resultsBefore,
    );
    expect(await inspect(() => t.db.select({ id: safetyAlerts.id }).from(safetyAlerts))).toEqual(
      alertsBefore,
    );
    expect(await inspect(() => t.db.select({ id: deliveries.id }).from(deliveries))).toEqual(
      deliveriesBefore,
    );
    expect((await login(t.app, "staff@demo.test", TEST_PASSWORD)).me.user.email).toBe("staff@demo.test");
  });
});

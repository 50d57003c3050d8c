import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BUILTIN_SURVEYS } from "@core-care/survey-engine";
import type { Me, Patient, ReportSummary, SurveySummary, Tenant } from "@core-care/schema";
import { createTestApp, login, TEST_PASSWORD, type TestApp } from "../test/helpers.js";
import { seedDemoData } from "./seed.js";
import { tenants, users } from "./db/schema.js";

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

  test("changes nothing when run again", async () => {
    const before = await t.db.select().from(users);
    await seedDemoData(t.db, "another password entirely");
    const after = await t.db.select().from(users);
    expect(after).toEqual(before);
    expect((await login(t.app, "staff@demo.test", TEST_PASSWORD)).me.user.email).toBe("staff@demo.test");
  });
});

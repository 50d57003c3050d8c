import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AuditEvent, Patient } from "@core-care/schema";
import { createTestApp, errorFields, login, type TestApp } from "../../../test/helpers.js";

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

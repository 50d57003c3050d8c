import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { objectId } from "@core-care/survey-engine";
import type { SafetyAlert } from "@core-care/schema";
import { createTestApp, errorFields, login, type TestApp } from "../../../test/helpers.js";
import { safetyAlerts } from "../../db/schema.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function alertIn(tenantId: string) {
  const id = objectId();
  await t.db.insert(safetyAlerts).values({
    tenantId,
    id,
    resultId: objectId(),
    patientId: objectId(),
    kind: "phq9-self-harm",
    message: "m",
  });
  return id;
}

describe("/api/alerts", () => {
  test("lists open alerts and acknowledges one", async () => {
    const u = await t.createTestTenant({ role: "admin" });
    const id = await alertIn(u.tenantId);
    const s = await login(t.app, u.email);
    expect(
      (await s.inject({ method: "GET", url: "/api/alerts" })).json<SafetyAlert[]>().map((a) => a.id),
    ).toEqual([id]);
    // Acknowledging says a clinician acted on it: a plain user sees the alert but may not, by default.
    const plain = await login(t.app, (await t.createTestUser(u.tenantId, { role: "user" })).email);
    expect((await plain.inject({ method: "GET", url: "/api/alerts" })).json<SafetyAlert[]>()).toHaveLength(1);
    expect((await plain.inject({ method: "POST", url: `/api/alerts/${id}/acknowledge` })).statusCode).toBe(
      403,
    );
    expect((await s.inject({ method: "POST", url: `/api/alerts/${id}/acknowledge` })).statusCode).toBe(204);
    expect((await s.inject({ method: "GET", url: "/api/alerts" })).json()).toEqual([]);
    expect((await s.inject({ method: "POST", url: `/api/alerts/${id}/acknowledge` })).statusCode).toBe(404);
  });

  test("answers 404 for another tenant's alert and 400 for a malformed id", async () => {
    const a = await t.createTestTenant();
    const b = await t.createTestTenant({ role: "admin" });
    const id = await alertIn(a.tenantId);
    const s = await login(t.app, b.email);
    expect((await s.inject({ method: "GET", url: "/api/alerts" })).json()).toEqual([]);
    expect((await s.inject({ method: "POST", url: `/api/alerts/${id}/acknowledge` })).statusCode).toBe(404);
    expect(errorFields(await s.inject({ method: "POST", url: "/api/alerts/zzz/acknowledge" }))).toEqual([
      "id",
    ]);
  });

  test("answers 401 without a session and 403 with no role", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/alerts" })).statusCode).toBe(401);
    const none = await t.createTestTenant({ role: "none" });
    const s = await login(t.app, none.email);
    expect((await s.inject({ method: "GET", url: "/api/alerts" })).statusCode).toBe(403);
  });
});

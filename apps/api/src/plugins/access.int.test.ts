import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Patient } from "@core-care/schema";
import { buildApp } from "../app.js";
import {
  createTestApp,
  createTestDatabase,
  createTestTenant,
  login,
  testConfig,
  type Session,
  type TestApp,
} from "../../test/helpers.js";

const patientInput = { mrn: "ENC-1", firstName: "Enc", lastName: "Oded", dob: "1950-01-02", sex: "F" };

describe("hooks decide on the route the router matched, never the raw URL", () => {
  let t: TestApp;
  let staff: Session;

  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimitPerMinute: 5 } });
    const tenant = await t.createTestTenant({ role: "user" });
    staff = await login(t.app, tenant.email);
  });
  afterAll(async () => {
    await t.close();
  });

  test("a percent-encoded /api path still needs the CSRF header", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/%61pi/patients",
      headers: { cookie: staff.cookie },
      payload: patientInput,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ responseStatus: { message: "Missing X-Requested-With header." } });
  });

  test("a percent-encoded /api path still answers Cache-Control: no-store", async () => {
    const res = await staff.inject({ method: "GET", url: "/%61pi/patients" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const created = await staff.inject({ method: "POST", url: "/%61p%69/patients", payload: patientInput });
    expect(created.statusCode).toBe(201);
    expect(created.json<Patient>().mrn).toBe("ENC-1");
  });

  test("a percent-encoded /api path still counts against the rate limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.app.inject({ method: "GET", url: "/%61pi/config", remoteAddress: "10.9.8.7" });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  test("a percent-encoded /api path still needs a session", async () => {
    const res = await t.app.inject({ method: "GET", url: "/%61pi/patients", remoteAddress: "10.1.1.1" });
    expect(res.statusCode).toBe(401);
  });
});

describe("a route missing from the permission table", () => {
  test("is refused, never allowed, whoever calls it", async () => {
    const database = await createTestDatabase();
    const config = testConfig();
    const app = await buildApp(config, { database });
    let reached = false;
    app.get("/api/unlisted", async () => {
      reached = true;
      return { ok: true };
    });
    await app.ready();
    try {
      const anonymous = await app.inject({ method: "GET", url: "/api/unlisted" });
      expect(anonymous.statusCode).toBe(403);
      const sysAdmin = await createTestTenant(database.db, { role: "sysAdmin" });
      const session = await login(app, sysAdmin.email);
      expect((await session.inject({ method: "GET", url: "/api/unlisted" })).statusCode).toBe(403);
      expect(reached).toBe(false);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

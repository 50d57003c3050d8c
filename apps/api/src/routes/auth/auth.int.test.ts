import type { ErrorResponse } from "@core-care/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestApp, login, sessionCookie, TEST_PASSWORD, type TestApp } from "../../../test/helpers.js";

const XHR = { "x-requested-with": "XMLHttpRequest" };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("POST /api/auth/sessions", () => {
  test("signs in and answers Me with a new httpOnly SameSite=Lax session cookie", async () => {
    const tenant = await t.createTestTenant({ role: "user" });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      headers: XHR,
      payload: { email: tenant.email.toUpperCase(), password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      user: {
        id: tenant.userId,
        email: tenant.email,
        roles: 1,
        tenant: tenant.tenantId,
        tenants: [tenant.tenantId],
      },
      tenant: { id: tenant.tenantId },
    });
    const cookie = res.cookies.find((c) => c.name === "sid");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
  });

  test("answers the same 401 for an unknown e-mail and a wrong password", async () => {
    const tenant = await t.createTestTenant();
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      headers: XHR,
      payload: { email: tenant.email, password: "not the password at all" },
    });
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      headers: XHR,
      payload: { email: "nobody@example.test", password: "not the password at all" },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ responseStatus: { status: 401, message: "Invalid email or password." } });
  });

  test("answers 403 without the X-Requested-With header", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      payload: { email: "a@example.test", password: "x" },
    });
    expect(res.statusCode).toBe(403);
  });

  test("answers 400 naming the field for a malformed e-mail", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      headers: XHR,
      payload: { email: "not-an-email", password: "x" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorResponse>().responseStatus.errors?.[0]?.field).toBe("email");
  });

  test("gives a new session id at sign-in even when the browser already holds one", async () => {
    const tenant = await t.createTestTenant();
    const first = await login(t.app, tenant.email);
    const again = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      headers: { ...XHR, cookie: first.cookie },
      payload: { email: tenant.email, password: TEST_PASSWORD },
    });
    const second = sessionCookie(again);
    expect(second).toBeDefined();
    expect(second).not.toBe(first.cookie);
    const old = await t.app.inject({
      method: "GET",
      url: "/api/users/me",
      headers: { cookie: first.cookie },
    });
    expect(old.statusCode).toBe(401);
  });
});

describe("DELETE /api/auth/sessions", () => {
  test("destroys the session and answers Clear-Site-Data", async () => {
    const tenant = await t.createTestTenant();
    const s = await login(t.app, tenant.email);
    const res = await s.inject({ method: "DELETE", url: "/api/auth/sessions" });
    expect(res.statusCode).toBe(204);
    expect(res.headers["clear-site-data"]).toBe('"cache", "cookies", "storage"');
    const after = await s.inject({ method: "GET", url: "/api/auth/keepalive" });
    expect(after.statusCode).toBe(401);
  });
});

describe("GET /api/auth/keepalive", () => {
  test("answers 204 no-store for a live session and 401 without one", async () => {
    const tenant = await t.createTestTenant();
    const s = await login(t.app, tenant.email);
    const ok = await s.inject({ method: "GET", url: "/api/auth/keepalive" });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers["cache-control"]).toBe("no-store");
    const anon = await t.app.inject({ method: "GET", url: "/api/auth/keepalive" });
    expect(anon.statusCode).toBe(401);
  });
});

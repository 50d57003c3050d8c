import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ErrorResponse } from "@core-care/schema";
import {
  createSecondServer,
  createTestApp,
  login,
  TEST_PASSWORD,
  type TestApp,
} from "../../../test/helpers.js";

const XHR = { "x-requested-with": "XMLHttpRequest" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The timeouts below leave each step two seconds or more to spare: on a busy machine one request can
// take most of a second.
describe("session idle timeout", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { idleTimeoutSeconds: 3 } });
  });
  afterAll(async () => {
    await t.close();
  });

  test("answers 401 once the idle timeout has passed without use", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    await sleep(3300);
    expect((await s.inject({ method: "GET", url: "/api/auth/keepalive" })).statusCode).toBe(401);
    expect((await s.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
  });

  test("keeps the session while it is used within the timeout", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    // Four seconds in all, longer than the timeout, one second between uses.
    for (let i = 0; i < 4; i++) {
      await sleep(1000);
      expect((await s.inject({ method: "GET", url: "/api/auth/keepalive" })).statusCode).toBe(204);
    }
  });
});

describe("session absolute lifetime", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { absoluteTimeoutSeconds: 3 } });
  });
  afterAll(async () => {
    await t.close();
  });

  test("ends a session after its absolute lifetime however busy it is", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    await sleep(1000);
    expect((await s.inject({ method: "GET", url: "/api/auth/keepalive" })).statusCode).toBe(204);
    await sleep(2300);
    expect((await s.inject({ method: "GET", url: "/api/auth/keepalive" })).statusCode).toBe(401);
  });
});

describe("session store", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  test("keeps sessions in the database so a restarted server still knows them", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const second = await createSecondServer(t);
    try {
      const res = await second.app.inject({
        method: "GET",
        url: "/api/users/me",
        headers: { cookie: s.cookie },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  test("ignores a forged cookie", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/users/me",
      headers: { cookie: "sid=forged.value" },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe("sign-in throttle", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      throttleLimits: { windowMs: 60_000, perAccountAndAddress: 3, perAccount: 6, perAddress: 10 },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const attempt = (email: string, password: string, remoteAddress: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      headers: XHR,
      remoteAddress,
      payload: { email, password },
    });

  test("holds back an account at one address after repeated failures, not a colleague at the same address", async () => {
    const victim = await t.createTestTenant();
    const colleague = await t.createTestUser(victim.tenantId);
    for (let i = 0; i < 3; i++)
      expect((await attempt(victim.email, "wrong guess number x", "10.0.0.7")).statusCode).toBe(401);
    expect((await attempt(victim.email, TEST_PASSWORD, "10.0.0.7")).statusCode).toBe(429);
    expect((await attempt(colleague.email, TEST_PASSWORD, "10.0.0.7")).statusCode).toBe(200);
    expect((await attempt(victim.email, TEST_PASSWORD, "10.0.0.8")).statusCode).toBe(200);
  });

  test("holds back one address guessing many accounts", async () => {
    const u = await t.createTestTenant();
    for (let i = 0; i < 10; i++) await attempt(`nobody${i}@example.test`, "wrong guess number x", "10.9.9.9");
    expect((await attempt(u.email, TEST_PASSWORD, "10.9.9.9")).statusCode).toBe(429);
    expect((await attempt(u.email, TEST_PASSWORD, "10.9.9.10")).statusCode).toBe(200);
  });
});

describe("the session cookie in production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { nodeEnv: "production", trustProxy: true } });
  });
  afterAll(async () => {
    await t.close();
  });

  const signIn = (email: string, headers: Record<string, string>) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/sessions",
      headers: { ...XHR, ...headers },
      payload: { email, password: TEST_PASSWORD },
    });

  test("is __Host-sid: Secure, Path=/, no Domain, and signing out clears it with the same attributes", async () => {
    const u = await t.createTestTenant();
    const res = await signIn(u.email, { "x-forwarded-proto": "https" });
    expect(res.statusCode, res.body).toBe(200);
    const header = [res.headers["set-cookie"]].flat().join("\n");
    expect(header).toMatch(/^__Host-sid=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/m);
    expect(header).not.toMatch(/Domain=/i);
    expect(res.cookies.map((c) => c.name)).toEqual(["__Host-sid"]);

    const cookie = `__Host-sid=${res.cookies[0]?.value ?? ""}`;
    const headers = { ...XHR, cookie, "x-forwarded-proto": "https" };
    expect((await t.app.inject({ method: "GET", url: "/api/users/me", headers })).statusCode).toBe(200);
    // The old name is not read: a cookie a plain-HTTP page or a sibling subdomain could set is no session.
    const oldName = { ...headers, cookie: `sid=${res.cookies[0]?.value ?? ""}` };
    expect((await t.app.inject({ method: "GET", url: "/api/users/me", headers: oldName })).statusCode).toBe(
      401,
    );

    const out = await t.app.inject({ method: "DELETE", url: "/api/auth/sessions", headers });
    expect(out.statusCode).toBe(204);
    // A browser drops a __Host- cookie's clearing that lacks Secure or Path=/.
    const cleared = [out.headers["set-cookie"]].flat().find((c) => c?.startsWith("__Host-sid=;")) ?? "";
    expect(cleared.split("; ").sort()).toEqual(
      expect.arrayContaining(["HttpOnly", "Max-Age=0", "Path=/", "SameSite=Lax", "Secure"]),
    );
    expect(cleared).not.toMatch(/Domain=/i);
  });

  test("a sign-in over plain HTTP is refused with a message that says why, and sets nothing", async () => {
    const u = await t.createTestTenant();
    const plain: Record<string, string>[] = [{}, { "x-forwarded-proto": "http" }];
    for (const headers of plain) {
      const res = await signIn(u.email, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json<ErrorResponse>().responseStatus.message).toBe(
        "Signing in needs a secure connection (HTTPS): the session cookie is only given over HTTPS. " +
          "Open the portal at its https:// address.",
      );
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
  });
});

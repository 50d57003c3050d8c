import { and, eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import type { ErrorResponse, Me, TenantSettings } from "@core-care/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditEvents, tenants, totpRecoveryCodes } from "../../db/schema.js";
import {
  asSession,
  createTestApp,
  inspect,
  errorFields,
  login,
  sessionCookie,
  TEST_PASSWORD,
  type Session,
  type TestApp,
  type TestTenant,
} from "../../../test/helpers.js";

const XHR = { "x-requested-with": "XMLHttpRequest" };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ throttleLimits: { perAccountAndAddress: 3 } });
});
afterAll(async () => {
  await t.close();
});

/** The authenticator's code `steps` 30-second steps from now, as the user's app would show it. */
function codeAt(secret: string, steps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });
}

/** A 6-digit code that no step around now accepts. */
function wrongCode(secret: string): string {
  const near = new Set([-1, 0, 1, 2].map((s) => codeAt(secret, s)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!near.has(candidate)) return candidate;
  }
}

async function auditRows(userId: string, action: string) {
  return inspect(() =>
    t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, userId), eq(auditEvents.action, action))),
  );
}

async function setSettings(tenantId: string, settings: Partial<TenantSettings>) {
  await t.db
    .update(tenants)
    .set({ settings: { teleAwvEmail: false, alternateFalls: false, ...settings } })
    .where(eq(tenants.id, tenantId));
}

/** The password step: answers the response and the cookie of the pending sign-in. */
async function passwordStep(email: string, remoteAddress = "127.0.0.1") {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/sessions",
    headers: XHR,
    remoteAddress,
    payload: { email, password: TEST_PASSWORD },
  });
  return { res, cookie: sessionCookie(res) ?? "" };
}

function codeStep(cookie: string, code: string, remoteAddress = "127.0.0.1") {
  return t.app.inject({
    method: "POST",
    url: "/api/auth/sessions/totp",
    headers: { ...XHR, cookie },
    remoteAddress,
    payload: { code },
  });
}

/** An admin of a practice of their own who has turned the second factor on. */
async function enrolledAdmin(): Promise<{
  admin: TestTenant;
  session: Session;
  secret: string;
  recoveryCodes: string[];
}> {
  const admin = await t.createTestTenant({ role: "admin" });
  const session = await login(t.app, admin.email);
  const start = await session.inject({ method: "POST", url: "/api/users/me/totp/enrolment" });
  const { secret } = start.json<{ secret: string }>();
  const confirm = await session.inject({
    method: "POST",
    url: "/api/users/me/totp/enrolment/confirm",
    payload: { code: codeAt(secret) },
  });
  expect(confirm.statusCode).toBe(200);
  return { admin, session, secret, recoveryCodes: confirm.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

describe("POST /api/users/me/totp/enrolment", () => {
  test("keeps the secret pending until a code of it confirms, then answers ten recovery codes once", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const session = await login(t.app, admin.email);
    const start = await session.inject({ method: "POST", url: "/api/users/me/totp/enrolment" });
    expect(start.statusCode).toBe(200);
    const { secret, uri } = start.json<{ secret: string; uri: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe("otpauth:");
    expect(parsed.searchParams.get("secret")).toBe(secret);
    expect(parsed.searchParams.get("issuer")).toBe("Core Care");
    expect(decodeURIComponent(parsed.pathname)).toContain(admin.email);

    const status = () => session.inject({ method: "GET", url: "/api/users/me/totp" });
    expect((await status()).json()).toEqual({ enabled: false, required: false });

    const wrong = await session.inject({
      method: "POST",
      url: "/api/users/me/totp/enrolment/confirm",
      payload: { code: wrongCode(secret) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(errorFields(wrong)).toEqual(["code"]);
    expect((await status()).json()).toEqual({ enabled: false, required: false });

    const confirm = await session.inject({
      method: "POST",
      url: "/api/users/me/totp/enrolment/confirm",
      payload: { code: codeAt(secret) },
    });
    expect(confirm.statusCode).toBe(200);
    const { recoveryCodes } = confirm.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect((await status()).json()).toEqual({ enabled: true, required: false });

    // Only hashes are stored.
    const stored = await t.db
      .select()
      .from(totpRecoveryCodes)
      .where(eq(totpRecoveryCodes.userId, admin.userId));
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(recoveryCodes).not.toContain(row.codeHash);

    const on = await auditRows(admin.userId, "totp-on");
    expect(on).toHaveLength(1);
    expect(on[0]).toMatchObject({ tenantId: admin.tenantId, entity: "user", entityId: admin.userId });
    expect((await auditRows(admin.userId, "login-failed"))[0]).toMatchObject({
      entity: "totp",
      details: { purpose: "enrol" },
    });

    // Set up once; a second enrolment needs the factor turned off first.
    const again = await session.inject({ method: "POST", url: "/api/users/me/totp/enrolment" });
    expect(again.statusCode).toBe(409);
  });

  test("is refused to a plain user", async () => {
    const user = await t.createTestTenant({ role: "user" });
    const session = await login(t.app, user.email);
    const res = await session.inject({ method: "POST", url: "/api/users/me/totp/enrolment" });
    expect(res.statusCode).toBe(403);
  });

  test("confirming without a started enrolment answers 409", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const session = await login(t.app, admin.email);
    const res = await session.inject({
      method: "POST",
      url: "/api/users/me/totp/enrolment/confirm",
      payload: { code: "123456" },
    });
    expect(res.statusCode).toBe(409);
  });
});

describe("POST /api/auth/sessions with a second factor", () => {
  test("answers 202 after the password, reaches nothing, then signs in with a code", async () => {
    const { admin, secret } = await enrolledAdmin();
    const { res, cookie } = await passwordStep(admin.email);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ secondFactor: "totp" });
    expect(cookie).not.toBe("");

    const pending = asSession(t.app, cookie, {} as Me);
    for (const url of ["/api/users/me", "/api/patients", "/api/users/me/totp", "/api/auth/keepalive"]) {
      expect((await pending.inject({ method: "GET", url })).statusCode).toBe(401);
    }
    expect((await pending.inject({ method: "POST", url: "/api/users/me/totp/enrolment" })).statusCode).toBe(
      401,
    );

    const done = await codeStep(cookie, codeAt(secret, 1));
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      user: { id: admin.userId, roles: 2 },
      tenant: { id: admin.tenantId },
    });
    const signedIn = sessionCookie(done);
    expect(signedIn).toBeDefined();
    expect(signedIn).not.toBe(cookie);
    const me = asSession(t.app, signedIn ?? "", done.json<Me>());
    expect((await me.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(200);
    // The pending session's cookie was replaced, not promoted.
    expect((await pending.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);

    const logins = await auditRows(admin.userId, "login");
    expect(logins.at(-1)).toMatchObject({ tenantId: admin.tenantId, details: { secondFactor: "totp" } });
  });

  test("refuses a wrong code with 400 naming the field, audits it, and grants nothing", async () => {
    const { admin, secret } = await enrolledAdmin();
    const { cookie } = await passwordStep(admin.email);
    const res = await codeStep(cookie, wrongCode(secret));
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toEqual(["code"]);
    expect(sessionCookie(res)).toBeUndefined();
    const pending = asSession(t.app, cookie, {} as Me);
    expect((await pending.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
    const failed = await auditRows(admin.userId, "login-failed");
    expect(failed.at(-1)).toMatchObject({
      tenantId: admin.tenantId,
      entity: "totp",
      details: { purpose: "sign-in" },
    });
  });

  test("refuses a code of a time step already used (a replay)", async () => {
    const { admin, secret } = await enrolledAdmin();
    const code = codeAt(secret, 1);
    const first = await passwordStep(admin.email);
    expect((await codeStep(first.cookie, code)).statusCode).toBe(200);
    const second = await passwordStep(admin.email);
    const replay = await codeStep(second.cookie, code);
    expect(replay.statusCode).toBe(400);
    expect(errorFields(replay)).toEqual(["code"]);
    // The step the enrolment used is spent as well.
    const third = await passwordStep(admin.email);
    expect((await codeStep(third.cookie, codeAt(secret, 0))).statusCode).toBe(400);
  });

  test("accepts each recovery code once, in any case and without hyphens", async () => {
    const { admin, recoveryCodes } = await enrolledAdmin();
    const recovery = recoveryCodes[0] ?? "";
    const first = await passwordStep(admin.email);
    const ok = await codeStep(first.cookie, recovery.replaceAll("-", "").toLowerCase());
    expect(ok.statusCode).toBe(200);
    expect((await auditRows(admin.userId, "login")).at(-1)).toMatchObject({
      details: { secondFactor: "recovery" },
    });
    const second = await passwordStep(admin.email);
    expect((await codeStep(second.cookie, recovery)).statusCode).toBe(400);
    const other = await codeStep(second.cookie, recoveryCodes[1] ?? "");
    expect(other.statusCode).toBe(200);
  });

  test("holds back wrong codes like wrong passwords, and a new password step does not reset the count", async () => {
    const { admin, secret } = await enrolledAdmin();
    const address = "10.20.30.40";
    for (let i = 0; i < 2; i++) {
      const { cookie } = await passwordStep(admin.email, address);
      expect((await codeStep(cookie, wrongCode(secret), address)).statusCode).toBe(400);
    }
    const { cookie } = await passwordStep(admin.email, address);
    expect((await codeStep(cookie, wrongCode(secret), address)).statusCode).toBe(400);
    const held = await codeStep(cookie, codeAt(secret, 1), address);
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers["retry-after"])).toBeGreaterThan(0);
  });

  test("the code step without a password step answers 401", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions/totp",
      headers: XHR,
      payload: { code: "123456" },
    });
    expect(res.statusCode).toBe(401);
  });

  test("a user without a second factor still gets Me at once", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const { res } = await passwordStep(admin.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user: { id: admin.userId }, tenant: { id: admin.tenantId } });
  });
});

describe("a practice that requires a second factor for its admins", () => {
  test("has an admin without one enrol during sign-in before reaching anything", async () => {
    const admin = await t.createTestTenant({ role: "admin", settings: { requireAdminTotp: true } });
    const { res, cookie } = await passwordStep(admin.email);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ secondFactor: "enrol" });
    const pending = asSession(t.app, cookie, {} as Me);
    expect((await pending.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
    // Without the enrolment, the code step has no factor to check and the practice's rule refuses.
    const early = await codeStep(cookie, "123456");
    expect(early.statusCode).toBe(403);
    expect(early.json<ErrorResponse>().responseStatus.message).toBe(
      "Your practice requires a second factor for administrators.",
    );

    const start = await pending.inject({ method: "POST", url: "/api/auth/sessions/totp/enrolment" });
    expect(start.statusCode).toBe(200);
    const { secret } = start.json<{ secret: string }>();
    const confirm = await pending.inject({
      method: "POST",
      url: "/api/auth/sessions/totp/enrolment/confirm",
      payload: { code: codeAt(secret) },
    });
    expect(confirm.statusCode).toBe(200);
    const body = confirm.json<{ me: Me; recoveryCodes: string[] }>();
    expect(body.recoveryCodes).toHaveLength(10);
    expect(body.me).toMatchObject({ user: { id: admin.userId }, tenant: { id: admin.tenantId } });
    const signedIn = asSession(t.app, sessionCookie(confirm) ?? "", body.me);
    expect((await signedIn.inject({ method: "GET", url: "/api/users/me/totp" })).json()).toEqual({
      enabled: true,
      required: true,
    });
    expect(await auditRows(admin.userId, "totp-on")).toHaveLength(1);

    // Next time, the code.
    expect((await passwordStep(admin.email)).res.json()).toEqual({ secondFactor: "totp" });
  });

  test("lets its plain users sign in with the password alone", async () => {
    const admin = await t.createTestTenant({ role: "admin", settings: { requireAdminTotp: true } });
    const user = await t.createTestUser(admin.tenantId, { role: "user" });
    expect((await passwordStep(user.email)).res.statusCode).toBe(200);
  });

  test("refuses to turn the second factor off", async () => {
    const { admin, session } = await enrolledAdmin();
    await setSettings(admin.tenantId, { requireAdminTotp: true });
    const res = await session.inject({
      method: "DELETE",
      url: "/api/users/me/totp",
      payload: { password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(await auditRows(admin.userId, "totp-off")).toHaveLength(0);
  });
});

describe("DELETE /api/users/me/totp", () => {
  test("needs the password, then turns the factor off, drops the recovery codes and audits it", async () => {
    const { admin, session } = await enrolledAdmin();
    const wrong = await session.inject({
      method: "DELETE",
      url: "/api/users/me/totp",
      payload: { password: "not the password at all" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(errorFields(wrong)).toEqual(["password"]);
    const none = await session.inject({ method: "DELETE", url: "/api/users/me/totp", payload: {} });
    expect(none.statusCode).toBe(400);

    const res = await session.inject({
      method: "DELETE",
      url: "/api/users/me/totp",
      payload: { password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(204);
    expect(
      await t.db.select().from(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, admin.userId)),
    ).toHaveLength(0);
    expect((await auditRows(admin.userId, "totp-off"))[0]).toMatchObject({
      tenantId: admin.tenantId,
      entityId: admin.userId,
    });
    expect((await passwordStep(admin.email)).res.statusCode).toBe(200);
  });

  test("accepts a current code instead of the password", async () => {
    const { admin, session, secret } = await enrolledAdmin();
    const res = await session.inject({
      method: "DELETE",
      url: "/api/users/me/totp",
      payload: { code: codeAt(secret, 1) },
    });
    expect(res.statusCode).toBe(204);
    expect((await session.inject({ method: "GET", url: "/api/users/me/totp" })).json()).toEqual({
      enabled: false,
      required: false,
    });
    expect(await auditRows(admin.userId, "totp-off")).toHaveLength(1);
  });
});

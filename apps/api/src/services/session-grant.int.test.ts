import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import {
  Role,
  type ErrorResponse,
  type Me,
  type Patient,
  type TabletHandover,
  type Tenant,
} from "@core-care/schema";
import { CORE_CARE_WELLNESS_EXAM_ID } from "@core-care/survey-engine";
import { buildApp } from "../app.js";
import { auditEvents, sessions, userTenants } from "../db/schema.js";
import { PERMISSIONS, type Permission, type SessionWay } from "../permissions.js";

import {
  asSession,
  createSecondServer,
  createTestApp,
  createTestDatabase,
  createTestTenant,
  errorFields,
  giveSecondFactor,
  inspect,
  login,
  loginWithCode,
  postPatient,
  sessionCookie,
  sessionIdOf,
  TEST_PASSWORD,
  testConfig,
  totpCodeAt,
  type Session,
  type TestApp,
  type TestTenant,
} from "../../test/helpers.js";
import { invitationTokenOf, outboxMessages, resetTokenOf } from "../../test/mail.js";
import { CODE_NEEDED, ENDED_FOR, grantSession, SET_UP_FIRST } from "./session-grant.js";

const XHR = { "x-requested-with": "XMLHttpRequest" };
const REQUIRED_AT_SIGN_IN = "Your practice requires a second factor for administrators.";
let t: TestApp;
/** A system administrator of a practice of their own, who turns practices' requirements on and off. */
let operator: Session;

beforeAll(async () => {
  t = await createTestApp();
  const sys = await t.createTestTenant({ role: "sysAdmin" });
  operator = await login(t.app, sys.email);
});
afterAll(async () => {
  await t.close();
});

/** Turns a practice's "require a second factor for admins" on or off, as a system administrator does. */
async function requireFactor(tenantId: string, on = true) {
  const current = (await operator.inject({ method: "GET", url: `/api/tenants/${tenantId}` })).json<Tenant>();
  const res = await operator.inject({
    method: "PUT",
    url: `/api/tenants/${tenantId}`,
    payload: { name: current.name, settings: { ...current.settings, requireAdminTotp: on } },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Adds an existing user to another practice with `roles`, as an accepted invitation leaves it. */
async function addMembership(user: TestTenant, tenantId: string, roles: number) {
  await t.db.insert(userTenants).values({ tenantId, userId: user.userId, roles });
}

const me = (s: Session) => s.inject({ method: "GET", url: "/api/users/me" });
const passwordStep = (email: string, password = TEST_PASSWORD) =>
  t.app.inject({ method: "POST", url: "/api/auth/sessions", headers: XHR, payload: { email, password } });
const messageOf = (res: { json: () => unknown }) => (res.json() as ErrorResponse).responseStatus.message;

/** The password step of a sign-in that needs a second step: the pending session and what it needs. */
async function pendingSignIn(email: string) {
  const res = await passwordStep(email);
  expect(res.statusCode, res.body).toBe(202);
  const cookie = sessionCookie(res) ?? "";
  return {
    needs: res.json<{ secondFactor: string }>().secondFactor,
    pending: asSession(t.app, cookie, {} as Me),
  };
}

/** Staff of a new practice hand this browser to a new patient; answers both sessions and the hand-over. */
async function handOver(staff: Session) {
  const patient: Patient = await postPatient(staff, {
    mrn: `SF-${Math.random().toString(36).slice(2, 10)}`,
    firstName: "Tess",
    lastName: "Tablet",
    dob: "1950-02-03",
  });
  const res = await staff.inject({
    method: "POST",
    url: "/api/tablet/handovers",
    payload: { patientId: patient.id, surveyId: CORE_CARE_WELLNESS_EXAM_ID },
  });
  expect(res.statusCode, res.body).toBe(201);
  return {
    tablet: asSession(t.app, sessionCookie(res) ?? "", staff.me),
    handover: res.json<TabletHandover>(),
  };
}

const staffReturn = (tablet: Session, payload: Record<string, string>) =>
  tablet.inject({ method: "POST", url: "/api/tablet/handover/staff", payload });

/** An admin of a practice of their own with a second factor, signed in with its code. */
async function adminWithFactor(settings: { requireAdminTotp?: boolean } = {}) {
  const admin = await t.createTestTenant({ role: "admin", settings });
  const secret = await giveSecondFactor(t.db, admin.userId);
  return { admin, secret, session: await loginWithCode(t.app, t.db, admin, secret) };
}

/**
 * One attack per way in, keyed by the route the permission table says is one (`session`). Each shows that
 * the way passes the second-factor rule: what it refuses without the factor, and that it admits with it.
 */
const ATTACKS: Record<string, { way: SessionWay; attack: () => Promise<void> }> = {
  "POST /api/auth/sessions": {
    way: "sign-in",
    attack: async () => {
      // A user with a factor, and an admin of a practice that requires one: the password opens nothing.
      const { admin } = await adminWithFactor();
      const strict = await t.createTestTenant({ role: "admin", settings: { requireAdminTotp: true } });
      // An admin of a practice that requires one, who lands elsewhere: signing in is where it is set up.
      const elsewhere = await t.createTestTenant({ role: "user" });
      await addMembership(elsewhere, strict.tenantId, Role.user | Role.admin);
      for (const [who, needs] of [
        [admin, "totp"],
        [strict, "enrol"],
        [elsewhere, "enrol"],
      ] as const) {
        const step = await pendingSignIn(who.email);
        expect(step.needs).toBe(needs);
        expect((await me(step.pending)).statusCode).toBe(401);
        expect((await step.pending.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(401);
      }
      const plain = await t.createTestTenant({ role: "admin" });
      expect((await passwordStep(plain.email)).statusCode).toBe(200);
    },
  },
  "POST /api/auth/sessions/totp": {
    way: "sign-in",
    attack: async () => {
      const { admin, secret } = await adminWithFactor();
      const { pending } = await pendingSignIn(admin.email);
      const codeStep = (code: string) =>
        pending.inject({ method: "POST", url: "/api/auth/sessions/totp", payload: { code } });
      const wrong = await codeStep(totpCodeAt(secret, 5));
      expect(wrong.statusCode).toBe(400);
      expect(errorFields(wrong)).toEqual(["code"]);
      expect((await me(pending)).statusCode).toBe(401);
      await t.db.execute(sql`update users set totp_last_step = null where id = ${admin.userId}`);
      const right = await codeStep(totpCodeAt(secret));
      expect(right.statusCode, right.body).toBe(200);
      const signedIn = asSession(t.app, sessionCookie(right) ?? "", right.json<Me>());
      expect((await signedIn.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);
    },
  },
  "POST /api/auth/sessions/totp/enrolment/confirm": {
    way: "sign-in",
    attack: async () => {
      const strict = await t.createTestTenant({ role: "admin", settings: { requireAdminTotp: true } });
      const { pending } = await pendingSignIn(strict.email);
      const start = await pending.inject({ method: "POST", url: "/api/auth/sessions/totp/enrolment" });
      const { secret } = start.json<{ secret: string }>();
      // Set up but not confirmed: still nothing.
      expect((await me(pending)).statusCode).toBe(401);
      const confirm = await pending.inject({
        method: "POST",
        url: "/api/auth/sessions/totp/enrolment/confirm",
        payload: { code: totpCodeAt(secret) },
      });
      expect(confirm.statusCode, confirm.body).toBe(200);
      const signedIn = asSession(t.app, sessionCookie(confirm) ?? "", confirm.json<{ me: Me }>().me);
      // The session proved the factor it set up: an admin there, and still one on its next requests.
      expect((await signedIn.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);
      expect((await signedIn.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);
    },
  },
  "PUT /api/users/me/tenant": {
    way: "switch",
    attack: async () => {
      // The walk-around: a session opened before the practice turned the requirement on switches
      // in and works there as admin without ever setting a factor up.
      const home = await t.createTestTenant({ role: "user" });
      const strict = await t.createTestTenant({ role: "admin" });
      await addMembership(home, strict.tenantId, Role.user | Role.admin);
      const s = await login(t.app, home.email);
      await requireFactor(strict.tenantId);
      const res = await s.inject({
        method: "PUT",
        url: "/api/users/me/tenant",
        payload: { tenantId: strict.tenantId },
      });
      expect(res.statusCode).toBe(403);
      expect(messageOf(res)).toBe(SET_UP_FIRST.switch);
      // Still where it was, and no admin anywhere.
      expect((await me(s)).json<Me>().tenant.id).toBe(home.tenantId);
      expect((await s.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(403);
      // The way to set it up: signing in again asks for it.
      expect((await pendingSignIn(home.email)).needs).toBe("enrol");

      // With a factor, signed in with its code, the switch needs nothing more.
      const secret = await giveSecondFactor(t.db, home.userId);
      const proven = await loginWithCode(t.app, t.db, home, secret);
      const switched = await proven.inject({
        method: "PUT",
        url: "/api/users/me/tenant",
        payload: { tenantId: strict.tenantId },
      });
      expect(switched.statusCode, switched.body).toBe(200);
      const there = asSession(t.app, sessionCookie(switched) ?? "", switched.json<Me>());
      expect((await there.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);
    },
  },
  "POST /api/tenants/:id/switch": {
    way: "visit",
    attack: async () => {
      const strict = await t.createTestTenant({ role: "admin", settings: { requireAdminTotp: true } });
      const visit = (s: Session) =>
        s.inject({ method: "POST", url: `/api/tenants/${strict.tenantId}/switch` });
      // A visiting sysAdmin without a factor.
      const sys = await t.createTestTenant({ role: "sysAdmin" });
      const visitor = await login(t.app, sys.email);
      const refused = await visit(visitor);
      expect(refused.statusCode).toBe(403);
      expect(messageOf(refused)).toBe(SET_UP_FIRST.visit);
      // A sysAdmin who is also an admin there, made one after signing in: refused as a member's switch is.
      const member = await t.createTestTenant({ role: "sysAdmin" });
      const s = await login(t.app, member.email);
      await addMembership(member, strict.tenantId, Role.user | Role.admin);
      const asMember = await visit(s);
      expect(asMember.statusCode).toBe(403);
      expect(messageOf(asMember)).toBe(SET_UP_FIRST.switch);
      expect((await me(s)).json<Me>().tenant.id).toBe(member.tenantId);
      // Signed in with a factor, both may.
      for (const who of [sys, member]) {
        const proven = await loginWithCode(t.app, t.db, who, await giveSecondFactor(t.db, who.userId));
        const res = await visit(proven);
        expect(res.statusCode, res.body).toBe(200);
        const there = asSession(t.app, sessionCookie(res) ?? "", res.json<Me>());
        expect((await there.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);
      }
    },
  },
  "POST /api/tablet/handover/staff": {
    way: "staff-return",
    attack: async () => {
      // The walk-around: an admin with a factor took the tablet back with the password alone.
      const { secret, session } = await adminWithFactor();
      const { tablet } = await handOver(session);
      const alone = await staffReturn(tablet, { password: TEST_PASSWORD });
      expect(alone.statusCode).toBe(400);
      expect(alone.json<ErrorResponse>().responseStatus.errors).toEqual([
        { field: "code", message: CODE_NEEDED },
      ]);
      expect(sessionCookie(alone)).toBeUndefined();
      // The patient credential is as it was, and reaches no staff route.
      expect((await tablet.inject({ method: "GET", url: "/api/tablet/handover" })).statusCode).toBe(200);
      expect((await tablet.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(403);
      const wrong = await staffReturn(tablet, { password: TEST_PASSWORD, code: totpCodeAt(secret, 5) });
      expect(wrong.statusCode).toBe(400);
      expect(errorFields(wrong)).toEqual(["code"]);
      const back = await staffReturn(tablet, { password: TEST_PASSWORD, code: totpCodeAt(secret, 1) });
      expect(back.statusCode, back.body).toBe(200);
      const staff = asSession(t.app, sessionCookie(back) ?? "", back.json<Me>());
      expect((await staff.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);
      // The code proved the factor: the staff session lasts past its first request.
      expect((await staff.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);

      // An admin without one, whose practice turned the requirement on while the tablet was handed over.
      const plain = await t.createTestTenant({ role: "admin" });
      const handed = await handOver(await login(t.app, plain.email));
      await requireFactor(plain.tenantId);
      const refused = await staffReturn(handed.tablet, { password: TEST_PASSWORD });
      expect(refused.statusCode).toBe(403);
      expect(messageOf(refused)).toBe(SET_UP_FIRST.tablet);
      expect((await handed.tablet.inject({ method: "GET", url: "/api/tablet/handover" })).statusCode).toBe(
        200,
      );
    },
  },
  "POST /api/tablet/handovers": {
    way: "hand-over",
    attack: async () => {
      // The patient credential that replaces the staff session holds no practice role.
      const { session } = await adminWithFactor();
      const { tablet } = await handOver(session);
      expect((await me(session)).statusCode).toBe(401);
      for (const url of ["/api/users/me", "/api/users", "/api/patients"]) {
        expect((await tablet.inject({ method: "GET", url })).statusCode).toBe(403);
      }
    },
  },
};

describe("every way a session gains a practice or a role", () => {
  /** The routes the permission table says give a session a practice, a role or a patient credential. */
  const ways = Object.entries(PERMISSIONS as Record<string, Permission>)
    .filter(([, permission]) => permission.session !== undefined)
    .map(([key]) => key);

  test("each route the permission table names a way in is registered and attacked below", () => {
    const registered = t.app.routeKeys();
    for (const key of ways) expect(registered, key).toContain(key);
    expect(Object.keys(ATTACKS).sort()).toEqual([...ways].sort());
    for (const key of ways) {
      expect(ATTACKS[key]?.way, key).toBe((PERMISSIONS as Record<string, Permission>)[key]?.session);
    }
  });

  test.each(ways)("%s passes the second-factor rule", async (key) => {
    const entry = ATTACKS[key];
    if (entry === undefined) throw new Error(`no attack on ${key}`);
    await entry.attack();
  });
});

describe("the ways that give no session pass the rule where the session next goes", () => {
  test("an invitation accepted gives no session, and the switch into the practice needs its factor", async () => {
    const { admin, session: inviter } = await adminWithFactor({ requireAdminTotp: true });
    const person = await t.createTestTenant({ role: "user" });
    const theirs = await login(t.app, person.email);
    const before = outboxMessages(t.config.dataDir).length;
    const invite = await inviter.inject({
      method: "POST",
      url: "/api/users",
      payload: { firstName: "Ada", lastName: "Invited", email: person.email, roles: Role.user | Role.admin },
    });
    expect(invite.statusCode, invite.body).toBe(202);
    const token = invitationTokenOf(outboxMessages(t.config.dataDir)[before] ?? "");
    const accept = await theirs.inject({
      method: "POST",
      url: "/api/users/invitations/accept",
      payload: { token },
    });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(accept.headers["set-cookie"]).toBeUndefined();
    // What the invitation page does next: switch into the practice joined.
    const res = await theirs.inject({
      method: "PUT",
      url: "/api/users/me/tenant",
      payload: { tenantId: admin.tenantId },
    });
    expect(res.statusCode).toBe(403);
    expect(messageOf(res)).toBe(SET_UP_FIRST.switch);
    expect((await me(theirs)).json<Me>().tenant.id).toBe(person.tenantId);
    expect((await pendingSignIn(person.email)).needs).toBe("enrol");
  });

  test("a new account's invitation sets its password and no session; signing in sets the factor up", async () => {
    const { session: inviter } = await adminWithFactor({ requireAdminTotp: true });
    const email = `new-${Date.now()}@example.test`;
    const before = outboxMessages(t.config.dataDir).length;
    const created = await inviter.inject({
      method: "POST",
      url: "/api/users",
      payload: { firstName: "Nia", lastName: "New", email, roles: Role.user | Role.admin },
    });
    expect(created.statusCode, created.body).toBe(201);
    await expect.poll(() => outboxMessages(t.config.dataDir).length).toBeGreaterThan(before);
    const token = invitationTokenOf(outboxMessages(t.config.dataDir).at(-1) ?? "");
    const password = "a new account's own long passphrase";
    const accept = await t.app.inject({
      method: "POST",
      url: "/api/users/invitations/accept",
      headers: XHR,
      payload: { token, password, confirmPassword: password },
    });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(accept.headers["set-cookie"]).toBeUndefined();
    const res = await passwordStep(email, password);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ secondFactor: "enrol" });
  });

  test("a password reset gives no session, and signing in with the new password asks for the code", async () => {
    const { admin } = await adminWithFactor();
    const before = outboxMessages(t.config.dataDir).length;
    await t.app.inject({
      method: "DELETE",
      url: `/api/auth/passwords/${encodeURIComponent(admin.email)}`,
      headers: XHR,
    });
    await expect.poll(() => outboxMessages(t.config.dataDir)).toHaveLength(before + 1);
    const password = "violet harbour lantern seventy-two";
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/auth/passwords",
      headers: XHR,
      payload: {
        email: admin.email,
        oldPassword: resetTokenOf(outboxMessages(t.config.dataDir).at(-1) ?? ""),
        password,
        confirmPassword: password,
      },
    });
    expect(reset.statusCode, reset.body).toBe(204);
    expect(reset.headers["set-cookie"]).toBeUndefined();
    expect((await passwordStep(admin.email, password)).json()).toEqual({ secondFactor: "totp" });
  });
});

describe("a session that no longer meets the rule ends at its next request", () => {
  test("a practice that turns the requirement on ends its admins' sessions without a factor, on every server", async () => {
    const admin = await t.createTestTenant({ role: "user" });
    await t.db
      .update(userTenants)
      .set({ roles: Role.user | Role.admin })
      .where(and(eq(userTenants.userId, admin.userId), eq(userTenants.tenantId, admin.tenantId)));
    const user = await t.createTestUser(admin.tenantId, { role: "user" });
    const proven = await t.createTestUser(admin.tenantId, { role: "admin" });
    const lacking = await login(t.app, admin.email);
    const plain = await login(t.app, user.email);
    const withFactor = await loginWithCode(t.app, t.db, proven, await giveSecondFactor(t.db, proven.userId));
    const second = await createSecondServer(t);
    try {
      const onSecond = asSession(second.app, lacking.cookie, lacking.me);
      // Each server holds the session and its membership in its cache.
      expect((await onSecond.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);
      expect((await lacking.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);

      await requireFactor(admin.tenantId);
      const [row] = await inspect(() =>
        t.db
          .select()
          .from(sessions)
          .where(eq(sessions.sid, sessionIdOf(lacking))),
      );
      expect(row).toBeUndefined();
      for (const s of [lacking, onSecond]) {
        const res = await s.inject({ method: "GET", url: "/api/users" });
        expect(res.statusCode).toBe(401);
      }
      // Its plain user and its admin who signed in with a factor keep working.
      expect((await me(plain)).statusCode).toBe(200);
      expect((await withFactor.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);
      const [update] = await inspect(() =>
        t.db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.entityId, admin.tenantId), eq(auditEvents.action, "update"))),
      );
      expect(update?.details).toEqual({ sessionsEnded: 1 });
    } finally {
      await second.close();
    }
  });

  test("a visiting sysAdmin without a factor is ended too when the practice turns the requirement on", async () => {
    const practice = await t.createTestTenant({ role: "admin" });
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    const res = await s.inject({ method: "POST", url: `/api/tenants/${practice.tenantId}/switch` });
    expect(res.statusCode, res.body).toBe(200);
    const visit = asSession(t.app, sessionCookie(res) ?? "", res.json<Me>());
    expect((await visit.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);
    await requireFactor(practice.tenantId);
    expect((await visit.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(401);
  });

  test("a user raised to admin of a practice that requires a factor is ended until they set one up", async () => {
    const { admin, session: editor } = await adminWithFactor({ requireAdminTotp: true });
    await t.db
      .update(userTenants)
      .set({ roles: Role.user | Role.admin })
      .where(and(eq(userTenants.userId, admin.userId), eq(userTenants.tenantId, admin.tenantId)));
    const user = await t.createTestUser(admin.tenantId, { role: "user" });
    const s = await login(t.app, user.email);
    expect((await me(s)).statusCode).toBe(200);
    const raised = await editor.inject({
      method: "PUT",
      url: `/api/users/${user.userId}`,
      payload: { firstName: "Test", lastName: "Raised", roles: Role.user | Role.admin },
    });
    expect(raised.statusCode, raised.body).toBe(200);
    const res = await s.inject({ method: "GET", url: "/api/users" });
    expect(res.statusCode).toBe(401);
    expect(messageOf(res)).toBe(ENDED_FOR.enrol);
    expect((await pendingSignIn(user.email)).needs).toBe("enrol");
  });

  test("a factor turned on in one session ends the user's other sessions that have not given it", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const here = await login(t.app, admin.email);
    const elsewhere = await login(t.app, admin.email);
    const start = await here.inject({ method: "POST", url: "/api/users/me/totp/enrolment" });
    const confirm = await here.inject({
      method: "POST",
      url: "/api/users/me/totp/enrolment/confirm",
      payload: { code: totpCodeAt(start.json<{ secret: string }>().secret) },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect((await here.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(200);
    const res = await me(elsewhere);
    expect(res.statusCode).toBe(401);
    expect(messageOf(res)).toBe(ENDED_FOR.code);
  });

  test("a sign-in that is refused in its code step keeps nothing", async () => {
    const strict = await t.createTestTenant({ role: "admin", settings: { requireAdminTotp: true } });
    const { pending } = await pendingSignIn(strict.email);
    const res = await pending.inject({
      method: "POST",
      url: "/api/auth/sessions/totp",
      payload: { code: "123456" },
    });
    expect(res.statusCode).toBe(403);
    expect(messageOf(res)).toBe(REQUIRED_AT_SIGN_IN);
    expect(sessionCookie(res)).toBeUndefined();
  });
});

describe("a session given outside services/session-grant.ts", () => {
  test("is ended as the answer goes, and a route that names no way in cannot give one", async () => {
    const database = await createTestDatabase();
    const config = testConfig();
    const app = await buildApp(config, { database });
    const user = await createTestTenant(database.db, { role: "admin" });
    const target = {
      userId: user.userId,
      tenantId: user.tenantId,
      roles: Role.admin,
      factor: "none" as const,
    };
    await app.register(async (rogue) => {
      // A way in that writes the session itself, as a route added without the rule would.
      rogue.post(
        "/api/rogue/own-session",
        { config: { permission: "POST /api/auth/sessions" } },
        async (request) => {
          await request.session.regenerate();
          request.session.set("userId", user.userId);
          request.session.set("tenantId", user.tenantId);
          request.session.set("createdAt", Date.now());
          request.session.set("lastSeenAt", Date.now());
          return { ok: true };
        },
      );
      // A route that is no way in by its table entry, calling the one function anyway.
      rogue.post("/api/rogue/undeclared", { config: { permission: "GET /api/config" } }, async (request) => {
        await grantSession(rogue, request, target);
        return { ok: true };
      });
      // The same call on a route whose entry says it is a way in.
      rogue.post(
        "/api/rogue/declared",
        { config: { permission: "POST /api/auth/sessions" } },
        async (request) => {
          await grantSession(rogue, request, target);
          return { ok: true };
        },
      );
    });
    await app.ready();
    try {
      const meWith = (cookie: string | undefined) =>
        app.inject({ method: "GET", url: "/api/users/me", headers: { ...XHR, cookie: cookie ?? "" } });
      for (const url of ["/api/rogue/own-session", "/api/rogue/undeclared"]) {
        const res = await app.inject({ method: "POST", url, headers: XHR });
        expect(res.statusCode, url).toBe(500);
        expect(res.body).not.toContain("rogue");
        expect((await meWith(sessionCookie(res))).statusCode, url).toBe(401);
      }
      const [left] = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(sessions)
        .where(eq(sessions.userId, user.userId));
      expect(left?.n).toBe(0);
      const declared = await app.inject({ method: "POST", url: "/api/rogue/declared", headers: XHR });
      expect(declared.statusCode, declared.body).toBe(200);
      expect((await meWith(sessionCookie(declared))).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    }
  });

  test("no source file but session-grant.ts writes who a session is", () => {
    const src = join(fileURLToPath(import.meta.url), "..", "..");
    const files = (readdirSync(src, { recursive: true }) as string[])
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
      .map((file) => join(src, file));
    const writers =
      /\.(regenerate)\(|session\.set\(\s*"(userId|tenantId|sysAdminVia|handoverId|secondFactorAt)"/;
    const found = files
      .filter((file) => writers.test(readFileSync(file, "utf8")))
      .map((file) => relative(src, file));
    expect(found).toEqual(["services/session-grant.ts"]);
  });
});

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import type { ErrorResponse, Me, ReportSummary, Tenant, TenantRef } from "@core-care/schema";
import { objectId } from "@core-care/survey-engine";
import {
  asSession as sessionOf,
  createTestApp,
  errorFields,
  giveSecondFactor,
  login,
  loginWithCode,
  sessionCookie,
  type Session,
  type TestApp,
} from "../../../test/helpers.js";
import { auditEvents, reports, userTenants } from "../../db/schema.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function addReport(tenantId: string, title: string) {
  const id = objectId();
  const definition = { title, script: "", markup: "<p/>", mock: {}, clinical: false };
  await t.db.insert(reports).values({ tenantId, id, title, version: 1, definition });
  return id;
}

describe("GET /api/tenants/me", () => {
  test("answers the session's tenant with its settings", async () => {
    const u = await t.createTestTenant({ settings: { teleAwvEmail: true } });
    const s = await login(t.app, u.email);
    const res = await s.inject({ method: "GET", url: "/api/tenants/me" });
    expect(res.statusCode).toBe(200);
    expect(res.json<Tenant>()).toMatchObject({
      id: u.tenantId,
      settings: { teleAwvEmail: true, alternateFalls: false },
    });
  });

  test("answers 401 without a session", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/tenants/me" })).statusCode).toBe(401);
  });
});

describe("GET /api/tenants/getMultiUserTenants", () => {
  test("lists the tenants of the session user", async () => {
    const a = await t.createTestTenant();
    const b = await t.createTestTenant();
    await t.db.insert(userTenants).values({ tenantId: b.tenantId, userId: a.userId, roles: 1 });
    const s = await login(t.app, a.email);
    const res = await s.inject({ method: "GET", url: "/api/tenants/getMultiUserTenants" });
    expect(
      res
        .json<TenantRef[]>()
        .map((x) => x.id)
        .sort(),
    ).toEqual([a.tenantId, b.tenantId].sort());
  });
});

describe("GET /api/tenants/{tenantId}/reports", () => {
  test("lists the reports of the user's own tenant", async () => {
    const u = await t.createTestTenant();
    const id = await addReport(u.tenantId, "Falls summary");
    const s = await login(t.app, u.email);
    const res = await s.inject({ method: "GET", url: `/api/tenants/${u.tenantId}/reports` });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ items: ReportSummary[] }>().items).toEqual([
      { id, title: "Falls summary", version: 1, clinical: false, tenantId: u.tenantId },
    ]);
  });

  test("answers 404 for another tenant to a user, and lists it for a sysAdmin", async () => {
    const u = await t.createTestTenant();
    const other = await t.createTestTenant();
    await addReport(other.tenantId, "Other");
    const s = await login(t.app, u.email);
    expect(
      (await s.inject({ method: "GET", url: `/api/tenants/${other.tenantId}/reports` })).statusCode,
    ).toBe(404);
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const ss = await login(t.app, sys.email);
    const res = await ss.inject({ method: "GET", url: `/api/tenants/${other.tenantId}/reports` });
    expect(res.json<{ total: number }>().total).toBe(1);
  });

  test("answers 400 naming tenantId for a malformed id", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const res = await s.inject({ method: "GET", url: "/api/tenants/NOT_OK/reports" });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toEqual(["tenantId"]);
  });
});

describe("tenant administration (sysAdmin)", () => {
  test("creates, reads, updates, lists and deletes a tenant", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    const id = `clinic-${objectId().slice(-8)}`;
    const created = await s.inject({
      method: "POST",
      url: "/api/tenants",
      payload: { id, name: "New Clinic", settings: { teleAwvEmail: true, alternateFalls: true } },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<Tenant>()).toEqual({
      id,
      name: "New Clinic",
      settings: { teleAwvEmail: true, alternateFalls: true },
    });
    expect((await s.inject({ method: "GET", url: `/api/tenants/${id}` })).json<Tenant>().name).toBe(
      "New Clinic",
    );
    const updated = await s.inject({
      method: "PUT",
      url: `/api/tenants/${id}`,
      payload: { name: "Renamed Clinic", settings: { teleAwvEmail: false, alternateFalls: true } },
    });
    expect(updated.json<Tenant>()).toMatchObject({
      name: "Renamed Clinic",
      settings: { teleAwvEmail: false },
    });
    const list = await s.inject({ method: "GET", url: "/api/tenants" });
    expect(list.json<{ items: Tenant[] }>().items.map((x) => x.id)).toContain(id);
    expect((await s.inject({ method: "DELETE", url: `/api/tenants/${id}` })).statusCode).toBe(204);
    expect((await s.inject({ method: "GET", url: `/api/tenants/${id}` })).statusCode).toBe(404);
  });

  test("a sysAdmin reads the settings edited elsewhere (the inbound set-up, the contact); a practice's users do not", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    const member = await t.createTestTenant({ role: "admin" });
    const elsewhere = {
      contact: { phone: "555-0100" },
      inboundFacilities: [{ facility: `FAC-${objectId()}` }],
      inboundSenders: [{ application: "EHR", facility: "CLINIC", addresses: ["10.1.2.0/24"] }],
      inboundProcessingId: "T",
    };
    const put = await s.inject({
      method: "PUT",
      url: `/api/tenants/${member.tenantId}`,
      payload: {
        name: "Member Clinic",
        settings: { teleAwvEmail: false, alternateFalls: false, ...elsewhere },
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<Tenant>().settings).toMatchObject(elsewhere);
    const one = await s.inject({ method: "GET", url: `/api/tenants/${member.tenantId}` });
    expect(one.json<Tenant>().settings).toMatchObject(elsewhere);
    const list = await s.inject({ method: "GET", url: "/api/tenants" });
    const listed = list.json<{ items: Tenant[] }>().items.find((x) => x.id === member.tenantId);
    expect(listed?.settings).toMatchObject(elsewhere);
    const own = await (await login(t.app, member.email)).inject({ method: "GET", url: "/api/tenants/me" });
    expect(Object.keys(own.json<Tenant>().settings)).not.toContain("inboundSenders");
  });

  test("gives a new tenant the built-in surveys", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    const id = `clinic-${objectId().slice(-8)}`;
    await s.inject({ method: "POST", url: "/api/tenants", payload: { id, name: "Fresh" } });
    const { surveys } = await import("../../db/schema.js");
    const { eq } = await import("drizzle-orm");
    const rows = await t.db.select({ id: surveys.id }).from(surveys).where(eq(surveys.tenantId, id));
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  test("answers 409 for an id that exists", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    const res = await s.inject({
      method: "POST",
      url: "/api/tenants",
      payload: { id: sys.tenantId, name: "Dup" },
    });
    expect(res.statusCode).toBe(409);
  });

  test("answers 409 when deleting the tenant signed in to", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    expect((await s.inject({ method: "DELETE", url: `/api/tenants/${sys.tenantId}` })).statusCode).toBe(409);
  });

  test.each([
    [{ id: "Bad Id", name: "X" }, "id"],
    [{ id: "ok-id", name: "" }, "name"],
    [{ id: "ok-id", name: "X", settings: { teleAwvEmail: "maybe" } }, "settings.teleAwvEmail"],
  ])("answers 400 for %j naming %s", async (payload, field) => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    const res = await s.inject({ method: "POST", url: "/api/tenants", payload });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toContain(field);
    // The message people read names no code name such as "settings.teleAwvEmail".
    expect(res.json<ErrorResponse>().responseStatus.message).not.toContain(`${field}:`);
  });

  test("says a malformed id in words", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    const res = await s.inject({ method: "POST", url: "/api/tenants", payload: { id: "Bad Id", name: "X" } });
    expect(res.json<ErrorResponse>().responseStatus).toMatchObject({
      message: "Id: Must be lowercase letters, digits and hyphens.",
      errors: [{ field: "id", message: "Must be lowercase letters, digits and hyphens." }],
    });
  });

  test.each(["user", "admin"] as const)("answers 403 to an %s", async (role) => {
    const u = await t.createTestTenant({ role });
    const s = await login(t.app, u.email);
    expect((await s.inject({ method: "GET", url: "/api/tenants" })).statusCode).toBe(403);
    expect(
      (await s.inject({ method: "POST", url: "/api/tenants", payload: { id: "x-y", name: "X" } })).statusCode,
    ).toBe(403);
    expect((await s.inject({ method: "GET", url: `/api/tenants/${u.tenantId}` })).statusCode).toBe(403);
    expect(
      (await s.inject({ method: "PUT", url: `/api/tenants/${u.tenantId}`, payload: { name: "X" } }))
        .statusCode,
    ).toBe(403);
    expect((await s.inject({ method: "DELETE", url: `/api/tenants/${u.tenantId}` })).statusCode).toBe(403);
  });

  test("answers 404 for a tenant that does not exist", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    expect(
      (await s.inject({ method: "PUT", url: "/api/tenants/no-such-tenant", payload: { name: "X" } }))
        .statusCode,
    ).toBe(404);
    expect((await s.inject({ method: "DELETE", url: "/api/tenants/no-such-tenant" })).statusCode).toBe(404);
  });
});

describe("POST /api/tenants/{id}/switch", () => {
  const newPractice = async (sys: Session) => {
    const id = `p-${objectId().slice(-10)}`;
    const res = await sys.inject({
      method: "POST",
      url: "/api/tenants",
      payload: { id, name: `Practice ${id}`, settings: { teleAwvEmail: false, alternateFalls: false } },
    });
    expect(res.statusCode, res.body).toBe(201);
    return id;
  };
  const switchTo = (s: Session, id: string) => s.inject({ method: "POST", url: `/api/tenants/${id}/switch` });
  const asSession = (s: Session, res: LightMyRequestResponse): Session => {
    const cookie = sessionCookie(res);
    if (cookie === undefined) throw new Error("no new session cookie");
    return sessionOf(t.app, cookie, res.json<Me>());
  };

  test("takes a sysAdmin into a practice they do not belong to, to add its first admin, audited in both", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    const practice = await newPractice(s);

    const res = await switchTo(s, practice);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Me>()).toMatchObject({
      tenant: { id: practice },
      user: { roles: 4, tenants: [sys.tenantId] },
    });
    // A new session id; the old one no longer works.
    expect((await s.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
    const visit = asSession(s, res);
    expect((await visit.inject({ method: "GET", url: "/api/tenants/me" })).json<Tenant>().id).toBe(practice);

    const email = `first-admin-${objectId()}@example.test`;
    const created = await visit.inject({
      method: "POST",
      url: "/api/users",
      payload: { firstName: "First", lastName: "Admin", email, roles: 2 },
    });
    expect(created.statusCode, created.body).toBe(201);
    // The visitor does not become a member: the practice's users are its own.
    const members = (await visit.inject({ method: "GET", url: "/api/users" })).json<{
      items: { email: string }[];
    }>();
    expect(members.items.map((u) => u.email)).toEqual([email]);

    for (const tenantId of [sys.tenantId, practice]) {
      const [event] = await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.action, "switch-tenant")));
      expect(event, tenantId).toMatchObject({
        userId: sys.userId,
        details: { from: sys.tenantId, to: practice, asSysAdmin: true },
      });
    }

    // Back home as a member, through the members' switch.
    const home = await visit.inject({
      method: "PUT",
      url: "/api/users/me/tenant",
      payload: { tenantId: sys.tenantId },
    });
    expect(home.statusCode, home.body).toBe(200);
    expect(home.json<Me>().tenant.id).toBe(sys.tenantId);
  });

  test("moves on from one visited practice to another, still on the role held at home", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    const first = await newPractice(s);
    const second = await newPractice(s);
    const visit = asSession(s, await switchTo(s, first));
    const res = await switchTo(visit, second);
    expect(res.statusCode, res.body).toBe(200);
    const again = asSession(visit, res);
    expect((await again.inject({ method: "GET", url: "/api/users/me" })).json<Me>().tenant.id).toBe(second);
    // Taking the role away at home ends the visit: the change reaches the auth cache by NOTIFY, a moment
    // after the write commits.
    await t.db
      .update(userTenants)
      .set({ roles: 2 })
      .where(and(eq(userTenants.userId, sys.userId), eq(userTenants.tenantId, sys.tenantId)));
    await expect
      .poll(async () => (await again.inject({ method: "GET", url: "/api/users/me" })).statusCode)
      .toBe(401);
  });

  test("ends the visit when the visited practice is removed", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    const practice = await newPractice(s);
    const visit = asSession(s, await switchTo(s, practice));
    const other = await login(t.app, sys.email);
    expect((await other.inject({ method: "DELETE", url: `/api/tenants/${practice}` })).statusCode).toBe(204);
    expect((await visit.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
  });

  test("refuses a sysAdmin without a second factor entry to a practice that requires one of its admins", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    const strict = await t.createTestTenant({ role: "admin", settings: { requireAdminTotp: true } });
    const res = await switchTo(s, strict.tenantId);
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorResponse>().responseStatus.message).toMatch(/requires a second factor/);
    expect((await s.inject({ method: "GET", url: "/api/users/me" })).json<Me>().tenant.id).toBe(sys.tenantId);
    // With a second factor of their own, signed in with it, they may.
    const secret = await giveSecondFactor(t.db, sys.userId);
    const withCode = await loginWithCode(t.app, t.db, sys, secret);
    expect((await switchTo(withCode, strict.tenantId)).statusCode).toBe(200);
  });

  test("answers 404 for an unknown practice, and 403 to an admin, who moves only among their own", async () => {
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const s = await login(t.app, sys.email);
    expect((await switchTo(s, "no-such-practice")).statusCode).toBe(404);
    const admin = await t.createTestTenant({ role: "admin" });
    const a = await login(t.app, admin.email);
    expect((await switchTo(a, sys.tenantId)).statusCode).toBe(403);
    const put = await a.inject({
      method: "PUT",
      url: "/api/users/me/tenant",
      payload: { tenantId: sys.tenantId },
    });
    expect(put.statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Me, User } from "@core-care/schema";
import { PERMISSIONS, UI_ACTION_ROUTES, type Permission } from "../../permissions.js";
import {
  createTestApp,
  errorFields,
  login,
  sessionCookie,
  TEST_PASSWORD,
  type TestApp,
} from "../../../test/helpers.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("GET /api/users/me", () => {
  test("answers the user and current tenant", async () => {
    const u = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, u.email);
    const res = await s.inject({ method: "GET", url: "/api/users/me" });
    expect(res.statusCode).toBe(200);
    expect(res.json<Me>()).toMatchObject({
      user: { id: u.userId, roles: 2, tenant: u.tenantId },
      tenant: { id: u.tenantId },
    });
  });

  test("answers 401 without a session", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
  });

  test("says what the user may do, from the permission table: a grant changed there follows in `may`", async () => {
    const u = await t.createTestTenant({ role: "user" });
    const s = await login(t.app, u.email);
    const before = (await s.inject({ method: "GET", url: "/api/users/me" })).json<Me>();
    expect(before.may).toMatchObject({ manageLocations: false, removePatients: false, editSurveys: false });
    expect(Object.keys(before.may).sort()).toEqual(Object.keys(UI_ACTION_ROUTES).sort());

    // The table opens the locations screen's route to plain users: the flag and the route move together.
    const table = PERMISSIONS as Record<string, Permission>;
    const key = UI_ACTION_ROUTES.manageLocations;
    const entry = table[key]!;
    table[key] = { staff: ["user", "admin", "sysAdmin"] };
    try {
      const after = (await s.inject({ method: "GET", url: "/api/users/me" })).json<Me>();
      expect(after.may).toMatchObject({ manageLocations: true, removePatients: false, editSurveys: false });
      const created = await s.inject({
        method: "POST",
        url: "/api/locations",
        payload: { name: "Annex", locationId: "ANX" },
      });
      expect(created.statusCode).not.toBe(403);
    } finally {
      table[key] = entry;
    }
    const restored = (await s.inject({ method: "GET", url: "/api/users/me" })).json<Me>();
    expect(restored.may.manageLocations).toBe(false);
  });

  test("an admin's session says so for every act the table opens to admins", async () => {
    const u = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, u.email);
    const me = (await s.inject({ method: "GET", url: "/api/users/me" })).json<Me>();
    expect(me.may).toMatchObject({ manageLocations: true, removePatients: true, manageTenants: false });
  });
});

describe("PUT /api/users/me", () => {
  test("updates the names and answers Me", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const res = await s.inject({
      method: "PUT",
      url: "/api/users/me",
      payload: {
        firstName: "Ana",
        lastName: "Lopez",
        currentPassword: TEST_PASSWORD,
        newPassword: "",
        confirmPassword: "",
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Me>().user).toMatchObject({ firstName: "Ana", lastName: "Lopez" });
  });

  test("changes the password and keeps the current session", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const other = await login(t.app, u.email);
    const next = "quiet meadow copper umbrella";
    const res = await s.inject({
      method: "PUT",
      url: "/api/users/me",
      payload: {
        firstName: "A",
        lastName: "B",
        currentPassword: TEST_PASSWORD,
        newPassword: next,
        confirmPassword: next,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await s.inject({ method: "GET", url: "/api/auth/keepalive" })).statusCode).toBe(204);
    expect((await other.inject({ method: "GET", url: "/api/auth/keepalive" })).statusCode).toBe(401);
    expect((await login(t.app, u.email, next)).me.user.id).toBe(u.userId);
  });

  test("answers 400 naming currentPassword when it is wrong, changing nothing", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const res = await s.inject({
      method: "PUT",
      url: "/api/users/me",
      payload: { firstName: "Changed", lastName: "Name", currentPassword: "not my password at all" },
    });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toEqual(["currentPassword"]);
    const me = await s.inject({ method: "GET", url: "/api/users/me" });
    expect(me.json<Me>().user.firstName).toBe("Test");
  });

  test.each([
    [{ firstName: "", lastName: "B", currentPassword: TEST_PASSWORD }, "firstName"],
    [{ firstName: "A", lastName: "B" }, "currentPassword"],
    [
      {
        firstName: "A",
        lastName: "B",
        currentPassword: TEST_PASSWORD,
        newPassword: "long enough password",
        confirmPassword: "x",
      },
      "confirmPassword",
    ],
    [
      {
        firstName: "A",
        lastName: "B",
        currentPassword: TEST_PASSWORD,
        newPassword: "short",
        confirmPassword: "short",
      },
      "newPassword",
    ],
    // The product's own name with a year and punctuation: among the first passwords an attacker tries.
    [
      {
        firstName: "A",
        lastName: "B",
        currentPassword: TEST_PASSWORD,
        newPassword: "corecaredemo2024!!",
        confirmPassword: "corecaredemo2024!!",
      },
      "newPassword",
    ],
  ])("answers 400 for %j naming %s", async (payload, field) => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const res = await s.inject({ method: "PUT", url: "/api/users/me", payload });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toContain(field);
  });
});

describe("PUT /api/users/me/tenant", () => {
  test("switches a multi-tenant user to another tenant with a new session id", async () => {
    const a = await t.createTestTenant();
    const b = await t.createTestTenant();
    const multi = await t.createTestUser(a.tenantId);
    const { userTenants } = await import("../../db/schema.js");
    await t.db.insert(userTenants).values({ tenantId: b.tenantId, userId: multi.userId, roles: 1 });
    const s = await login(t.app, multi.email);
    expect(s.me.user.tenant).toBe("multi");
    expect(s.me.user.tenants).toHaveLength(2);
    const target = s.me.tenant.id === a.tenantId ? b.tenantId : a.tenantId;
    const res = await s.inject({ method: "PUT", url: "/api/users/me/tenant", payload: { tenantId: target } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Me>().tenant.id).toBe(target);
    const cookie = sessionCookie(res);
    expect(cookie).toBeDefined();
    expect(cookie).not.toBe(s.cookie);
    expect((await s.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
    const me = await t.app.inject({
      method: "GET",
      url: "/api/tenants/me",
      headers: { cookie: cookie ?? "" },
    });
    expect(me.json<{ id: string }>().id).toBe(target);
  });

  test("answers 404 for a tenant the user does not belong to", async () => {
    const u = await t.createTestTenant();
    const other = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const res = await s.inject({
      method: "PUT",
      url: "/api/users/me/tenant",
      payload: { tenantId: other.tenantId },
    });
    expect(res.statusCode).toBe(404);
  });

  test("answers 400 naming tenantId for a malformed id", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const res = await s.inject({
      method: "PUT",
      url: "/api/users/me/tenant",
      payload: { tenantId: "Bad Id!" },
    });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toEqual(["tenantId"]);
  });
});

describe("GET /api/users", () => {
  test("lists the users of the admin's tenant only", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const colleague = await t.createTestUser(admin.tenantId);
    const stranger = await t.createTestTenant();
    const s = await login(t.app, admin.email);
    const res = await s.inject({ method: "GET", url: "/api/users" });
    expect(res.statusCode).toBe(200);
    const ids = res.json<{ items: User[] }>().items.map((u) => u.id);
    expect(ids.sort()).toEqual([admin.userId, colleague.userId].sort());
    expect(ids).not.toContain(stranger.userId);
  });

  test("answers 403 to a user without the admin role", async () => {
    const u = await t.createTestTenant({ role: "user" });
    const s = await login(t.app, u.email);
    expect((await s.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(403);
  });

  test("answers 403 to a user with no role at all", async () => {
    const u = await t.createTestTenant({ role: "none" });
    const s = await login(t.app, u.email);
    expect((await s.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(403);
  });
});

describe("POST /api/users", () => {
  test("creates a user in the admin's tenant who can then sign in", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    const password = "granite orchard whistle nineteen";
    const res = await s.inject({
      method: "POST",
      url: "/api/users",
      payload: { firstName: "New", lastName: "Nurse", email: "New.Nurse@Example.test", roles: 1, password },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<User>()).toMatchObject({
      email: "new.nurse@example.test",
      roles: 1,
      tenant: admin.tenantId,
    });
    expect((await login(t.app, "new.nurse@example.test", password)).me.tenant.id).toBe(admin.tenantId);
  });

  test("creates a user from the test form with free-text roles defaulting to User", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    const res = await s.inject({
      method: "POST",
      url: "/api/users",
      payload: { name: "Tess Tester", email: "tess@example.test" },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<User>()).toMatchObject({ firstName: "Tess", lastName: "Tester", roles: 1 });
    const admin2 = await s.inject({
      method: "POST",
      url: "/api/users",
      payload: { name: "Ad Min", email: "ad@example.test", roles: "Admin, User" },
    });
    expect(admin2.json<User>().roles).toBe(3);
  });

  test("answers 409 for an e-mail already in the tenant", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    const res = await s.inject({
      method: "POST",
      url: "/api/users",
      payload: { firstName: "A", lastName: "B", email: admin.email, roles: 1 },
    });
    expect(res.statusCode).toBe(409);
  });

  test("answers 403 when an admin grants sysAdmin", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    const res = await s.inject({
      method: "POST",
      url: "/api/users",
      payload: { firstName: "A", lastName: "B", email: "x@example.test", roles: 4 },
    });
    expect(res.statusCode).toBe(403);
  });

  test.each([
    [{ firstName: "A", lastName: "B", email: "nope", roles: 1 }, "email"],
    [{ firstName: "A", lastName: "B", email: "a@example.test", roles: 9 }, "roles"],
    [{ firstName: "A", lastName: "B", email: "a@example.test", roles: 1, password: "short" }, "password"],
    [{ name: "T", email: "t@example.test", roles: "wizard" }, "roles"],
  ])("answers 400 for %j naming %s", async (payload, field) => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    const res = await s.inject({ method: "POST", url: "/api/users", payload });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toContain(field);
  });

  test("answers 403 to a plain user", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const res = await s.inject({
      method: "POST",
      url: "/api/users",
      payload: { name: "T", email: "t2@example.test" },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("test form outside development and test", () => {
  test("is not offered in production mode", async () => {
    const prod = await createTestApp({ config: { nodeEnv: "production", trustProxy: true } });
    try {
      const admin = await prod.createTestTenant({ role: "admin" });
      const victim = await prod.createTestUser(admin.tenantId);
      const res = await prod.app.inject({
        method: "POST",
        url: "/api/auth/sessions",
        headers: { "x-requested-with": "XMLHttpRequest", "x-forwarded-proto": "https" },
        payload: { email: admin.email, password: TEST_PASSWORD },
      });
      const cookie = `__Host-sid=${res.cookies.find((c) => c.name === "__Host-sid")?.value ?? ""}`;
      expect(res.cookies.find((c) => c.name === "__Host-sid")?.secure).toBe(true);
      const headers = { cookie, "x-requested-with": "XMLHttpRequest", "x-forwarded-proto": "https" };
      const create = await prod.app.inject({
        method: "POST",
        url: "/api/users",
        headers,
        payload: { name: "T", email: "t@example.test" },
      });
      expect(create.statusCode).toBe(404);
      const del = await prod.app.inject({ method: "DELETE", url: `/api/users/${victim.email}`, headers });
      expect(del.statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});

describe("PUT /api/users/{id}", () => {
  test("updates names and roles of a user of the tenant", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const u = await t.createTestUser(admin.tenantId);
    const s = await login(t.app, admin.email);
    const res = await s.inject({
      method: "PUT",
      url: `/api/users/${u.userId}`,
      payload: { firstName: "Re", lastName: "Named", roles: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<User>()).toMatchObject({ firstName: "Re", lastName: "Named", roles: 3 });
  });

  test("answers 404 for a user of another tenant", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const other = await t.createTestTenant();
    const s = await login(t.app, admin.email);
    const res = await s.inject({
      method: "PUT",
      url: `/api/users/${other.userId}`,
      payload: { firstName: "X", lastName: "Y", roles: 1 },
    });
    expect(res.statusCode).toBe(404);
  });

  test("answers 400 naming id for a malformed id", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    const res = await s.inject({
      method: "PUT",
      url: "/api/users/123",
      payload: { firstName: "X", lastName: "Y", roles: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toEqual(["id"]);
  });
});

describe("DELETE /api/users/{id}", () => {
  test("removes a user of the tenant, whose session then ends", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const u = await t.createTestUser(admin.tenantId);
    const us = await login(t.app, u.email);
    const s = await login(t.app, admin.email);
    expect((await s.inject({ method: "DELETE", url: `/api/users/${u.userId}` })).statusCode).toBe(204);
    expect((await us.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
    await expect(login(t.app, u.email)).rejects.toThrow(/401/);
  });

  test("deletes by e-mail for the test form", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const u = await t.createTestUser(admin.tenantId);
    const s = await login(t.app, admin.email);
    expect(
      (await s.inject({ method: "DELETE", url: `/api/users/${encodeURIComponent(u.email)}` })).statusCode,
    ).toBe(204);
  });

  test("answers 404 for a user of another tenant and leaves them", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const other = await t.createTestTenant();
    const s = await login(t.app, admin.email);
    expect((await s.inject({ method: "DELETE", url: `/api/users/${other.userId}` })).statusCode).toBe(404);
    expect((await s.inject({ method: "DELETE", url: `/api/users/${other.email}` })).statusCode).toBe(404);
    expect((await login(t.app, other.email)).me.user.id).toBe(other.userId);
  });

  test("answers 409 for the admin's own account", async () => {
    const admin = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, admin.email);
    expect((await s.inject({ method: "DELETE", url: `/api/users/${admin.userId}` })).statusCode).toBe(409);
  });

  test("answers 403 to a plain user", async () => {
    const u = await t.createTestTenant();
    const other = await t.createTestUser(u.tenantId);
    const s = await login(t.app, u.email);
    expect((await s.inject({ method: "DELETE", url: `/api/users/${other.userId}` })).statusCode).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import {
  asSession,
  createSecondServer,
  createTestApp,
  login,
  sessionIdOf,
  type Session,
  type TestApp,
} from "../../../test/helpers.js";
import { sessions, userTenants, users } from "../../db/schema.js";
import { rowsOf } from "../../db/index.js";

const status = async (s: Session, url = "/api/users/me") =>
  (await s.inject({ method: "GET", url })).statusCode;

// A change another process makes reaches this one as a notification a moment after its commit (polled
// within expect.poll's timeout, well before the cache's own minute would end the entry).
const settles = { interval: 20 };

describe("sessions and memberships kept in memory", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  test("ends a session whose row another process removed", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    expect(await status(s)).toBe(200);
    await t.db.delete(sessions).where(eq(sessions.sid, sessionIdOf(s)));
    await expect.poll(() => status(s), settles).toBe(401);
  });

  test("applies a role another process changed to the next request", async () => {
    const u = await t.createTestTenant({ role: "admin" });
    const s = await login(t.app, u.email);
    expect(await status(s, "/api/users")).toBe(200);
    await t.db
      .update(userTenants)
      .set({ roles: 1 })
      .where(and(eq(userTenants.userId, u.userId), eq(userTenants.tenantId, u.tenantId)));
    await expect.poll(() => status(s, "/api/users"), settles).toBe(403);
    expect(await status(s)).toBe(200);
  });

  test("signs out a user another process removed from the tenant or deleted", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const deleted = await t.createTestUser(u.tenantId);
    const d = await login(t.app, deleted.email);
    expect(await status(s)).toBe(200);
    expect(await status(d)).toBe(200);
    await t.db
      .delete(userTenants)
      .where(and(eq(userTenants.userId, u.userId), eq(userTenants.tenantId, u.tenantId)));
    await t.db.delete(users).where(eq(users.id, deleted.userId));
    await expect.poll(() => status(s), settles).toBe(401);
    await expect.poll(() => status(d), settles).toBe(401);
  });

  test("a second server on the same database learns of a sign-out on the first", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const second = await createSecondServer(t);
    try {
      const onSecond = asSession(second.app, s.cookie, s.me);
      expect(await status(onSecond)).toBe(200);
      expect((await s.inject({ method: "DELETE", url: "/api/auth/sessions" })).statusCode).toBe(204);
      await expect.poll(() => status(onSecond), settles).toBe(401);
    } finally {
      await second.close();
    }
  });
});

// Only a server has a listening connection that can fail; PGlite's notifications cannot be missed.
if (inject("dbKind") === "postgres") {
  describe("sessions kept in memory on a PostgreSQL server", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    const listenerPids = async () =>
      rowsOf<{ pid: number }>(
        await t.db.execute(
          sql`select pid from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`,
        ),
      ).map((row) => row.pid);

    test("trusts nothing it kept while its listening connection was down", async () => {
      const u = await t.createTestTenant();
      const s = await login(t.app, u.email);
      expect(await status(s)).toBe(200);
      const [listener] = await listenerPids();
      expect(listener).toBeDefined();
      await t.db.execute(sql`select pg_terminate_backend(${listener})`);
      await expect.poll(async () => (await listenerPids()).includes(listener as number), settles).toBe(false);
      // Removed while no one listens: its notification reaches no one.
      await t.db.delete(sessions).where(eq(sessions.sid, sessionIdOf(s)));
      expect(await status(s)).toBe(401);
      await expect.poll(async () => (await listenerPids()).length, settles).toBe(1);
      const again = await login(t.app, u.email);
      expect(await status(again)).toBe(200);
      await t.db.delete(sessions).where(eq(sessions.sid, sessionIdOf(again)));
      await expect.poll(() => status(again), settles).toBe(401);
    });
  });
}

import { promisify } from "node:util";
import type { Session as StoredSession } from "fastify";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestApp, login, type Session, type TestApp } from "../../test/helpers.js";
import { sessions } from "../db/schema.js";
import { AUTH_CHANNEL, AuthCache } from "./auth-cache.js";
import { PgSessionStore } from "./session-store.js";

/** The sid of a session cookie `sid=<id>.<signature>`. */
const sidOf = (s: Session) => decodeURIComponent(s.cookie.slice("sid=".length)).split(".")[0] ?? "";

/** Makes the session's last use `ms` ago, so its next request writes the use back (a touch). */
async function lastUsedAgo(t: TestApp, s: Session, ms: number): Promise<void> {
  await t.db
    .update(sessions)
    .set({ sess: sql`jsonb_set(${sessions.sess}, '{lastSeenAt}', to_jsonb(${Date.now() - ms}::bigint))` })
    .where(eq(sessions.sid, sidOf(s)));
}

/** The store's callbacks as promises. */
function promised(store: PgSessionStore) {
  const set = promisify(store.set.bind(store));
  return {
    get: promisify(store.get.bind(store)),
    set: (sid: string, sess: Record<string, unknown>) => set(sid, sess as unknown as StoredSession),
    destroy: promisify(store.destroy.bind(store)),
  };
}

describe("a session that has ended stays ended", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  test("a request that read the session before a sign-out does not bring it back by writing its last use", async () => {
    const u = await t.createTestTenant();
    for (let round = 0; round < 5; round++) {
      const s = await login(t.app, u.email);
      await lastUsedAgo(t, s, 60_000);
      const [read, signOut] = await Promise.all([
        s.inject({ method: "GET", url: "/api/patients" }),
        s.inject({ method: "DELETE", url: "/api/auth/sessions" }),
      ]);
      expect([read.statusCode, signOut.statusCode]).toEqual([200, 204]);
      const rows = await t.db
        .select()
        .from(sessions)
        .where(eq(sessions.sid, sidOf(s)));
      expect(rows).toEqual([]);
      expect((await s.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
    }
  });

  test("a session is written whole only as it begins; once it holds a sign-in only its own row is written", async () => {
    const u = await t.createTestTenant();
    const cache = new AuthCache({ maxEntries: 100, maxAgeMs: 60_000 });
    const unlisten = await t.database.listen(AUTH_CHANNEL, cache);
    try {
      const store = promised(new PgSessionStore(t.db, { idleSeconds: 600, absoluteSeconds: 3600 }, cache));
      const now = Date.now();
      const signedIn = {
        cookie: {},
        userId: u.userId,
        tenantId: u.tenantId,
        createdAt: now,
        lastSeenAt: now,
      };
      // As regenerate() makes a session and the request then signs it in.
      await store.set("begun", { cookie: {} });
      await store.set("begun", signedIn);
      expect((await store.get("begun"))?.userId).toBe(u.userId);
      // A request that read it saves after it ended: nothing comes back, from the cache or the table.
      const read = await store.get("begun");
      await store.destroy("begun");
      await store.set("begun", { ...read, lastSeenAt: now + 5_000 });
      expect(await store.get("begun")).toBeNull();
      expect(await t.db.select().from(sessions).where(eq(sessions.sid, "begun"))).toEqual([]);
      // Removed by another process (a password reset ends every session of the user) while cached here.
      await store.set("other", { cookie: {} });
      await store.set("other", signedIn);
      expect((await store.get("other"))?.userId).toBe(u.userId);
      await t.db.delete(sessions).where(eq(sessions.sid, "other"));
      await store.set("other", { ...signedIn, lastSeenAt: now + 5_000 });
      await expect.poll(() => store.get("other"), { timeout: 3000, interval: 20 }).toBeNull();
      expect(await t.db.select().from(sessions).where(eq(sessions.sid, "other"))).toEqual([]);
      // A session holding a sign-in that never had a row is not made by a save.
      await store.set("never", signedIn);
      expect(await store.get("never")).toBeNull();
    } finally {
      await unlisten();
    }
  });

  test("a request of the old session that saves after a practice switch does not bring the old session back", async () => {
    const u = await t.createTestTenant();
    const second = await t.createTestTenant();
    await t.db.execute(
      sql`insert into user_tenants (user_id, tenant_id, roles) values (${u.userId}, ${second.tenantId}, ${u.roles})`,
    );
    for (let round = 0; round < 5; round++) {
      const s = await login(t.app, u.email);
      await lastUsedAgo(t, s, 60_000);
      const [read, moved] = await Promise.all([
        s.inject({ method: "GET", url: "/api/patients" }),
        s.inject({ method: "PUT", url: "/api/users/me/tenant", payload: { tenantId: second.tenantId } }),
      ]);
      expect([read.statusCode, moved.statusCode]).toEqual([200, 200]);
      expect(
        await t.db
          .select()
          .from(sessions)
          .where(eq(sessions.sid, sidOf(s))),
      ).toEqual([]);
      expect((await s.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
    }
  });
});

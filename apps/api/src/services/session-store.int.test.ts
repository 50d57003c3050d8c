import { promisify } from "node:util";
import type { InjectOptions, Session as StoredSession } from "fastify";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestApp, login, sessionIdOf, type TestApp } from "../../test/helpers.js";
import { sessions, userTenants } from "../db/schema.js";
import { AUTH_CHANNEL, AuthCache } from "./auth-cache.js";
import { PgSessionStore } from "./session-store.js";

/**
 * Five times: signs `email` in, makes its last use a minute old (so its next request writes the use back),
 * then sends a request that reads the session beside `end`, a call that ends it. That request's answer must
 * not name the session in a cookie; afterwards the session's row must be gone and its cookie answered 401.
 */
async function endBesideARequest(t: TestApp, email: string, end: InjectOptions, endStatus: number) {
  for (let round = 0; round < 5; round++) {
    const s = await login(t.app, email);
    const sid = sessionIdOf(s);
    await t.db
      .update(sessions)
      .set({
        sess: sql`jsonb_set(${sessions.sess}, '{lastSeenAt}', to_jsonb(${Date.now() - 60_000}::bigint))`,
      })
      .where(eq(sessions.sid, sid));
    const [read, ended] = await Promise.all([
      s.inject({ method: "GET", url: "/api/patients" }),
      s.inject(end),
    ]);
    expect([read.statusCode, ended.statusCode]).toEqual([200, endStatus]);
    // Answered after the end, a cookie naming the ended session would put it back in the browser.
    expect(read.cookies.filter((cookie) => cookie.name === "sid")).toEqual([]);
    expect(await t.db.select().from(sessions).where(eq(sessions.sid, sid))).toEqual([]);
    expect((await s.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
  }
}

/** A user of one test practice who also belongs to a second, with the same roles there. */
async function memberOfTwo(t: TestApp) {
  const u = await t.createTestTenant();
  const second = await t.createTestTenant();
  await t.db.insert(userTenants).values({ tenantId: second.tenantId, userId: u.userId, roles: u.roles });
  return { u, second };
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
    await endBesideARequest(t, u.email, { method: "DELETE", url: "/api/auth/sessions" }, 204);
  });

  test("a request that writes the session's last use back does not send its cookie again", async () => {
    const u = await t.createTestTenant();
    const s = await login(t.app, u.email);
    const sid = sessionIdOf(s);
    const minuteAgo = Date.now() - 60_000;
    await t.db
      .update(sessions)
      .set({ sess: sql`jsonb_set(${sessions.sess}, '{lastSeenAt}', to_jsonb(${minuteAgo}::bigint))` })
      .where(eq(sessions.sid, sid));
    t.app.authCache.forgetSession(sid);
    const read = await s.inject({ method: "GET", url: "/api/users/me" });
    expect(read.statusCode).toBe(200);
    expect(read.headers["set-cookie"]).toBeUndefined();
    const [row] = await t.db.select({ sess: sessions.sess }).from(sessions).where(eq(sessions.sid, sid));
    expect((row?.sess as { lastSeenAt: number }).lastSeenAt).toBeGreaterThan(minuteAgo);
  });

  test("a request under an id a practice switch replaced answers 401 and leaves the browser's cookie alone", async () => {
    const { u, second } = await memberOfTwo(t);
    const s = await login(t.app, u.email);
    const moved = await s.inject({
      method: "PUT",
      url: "/api/users/me/tenant",
      payload: { tenantId: second.tenantId },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.cookies.filter((cookie) => cookie.name === "sid")).toHaveLength(1);
    // Answered after the switch's answer, a cleared cookie would end the new session in the browser too.
    const late = await s.inject({ method: "GET", url: "/api/users/me" });
    expect(late.statusCode).toBe(401);
    expect(late.headers["set-cookie"]).toBeUndefined();
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
      await expect.poll(() => store.get("other"), { interval: 20 }).toBeNull();
      expect(await t.db.select().from(sessions).where(eq(sessions.sid, "other"))).toEqual([]);
      // A session holding a sign-in that never had a row is not made by a save.
      await store.set("never", signedIn);
      expect(await store.get("never")).toBeNull();
    } finally {
      await unlisten();
    }
  });

  test("a request of the old session that saves after a practice switch does not bring the old session back", async () => {
    const { u, second } = await memberOfTwo(t);
    const moveToSecond = { tenantId: second.tenantId };
    await endBesideARequest(
      t,
      u.email,
      { method: "PUT", url: "/api/users/me/tenant", payload: moveToSecond },
      200,
    );
  });
});

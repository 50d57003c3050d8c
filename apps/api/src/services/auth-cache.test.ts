import type { Session } from "fastify";
import { describe, expect, test } from "vitest";
import { AuthCache, type CachedSession, type Membership } from "./auth-cache.js";

const sessionOf = (userId: string, expireMs = 10_000): CachedSession => ({
  sess: { userId, tenantId: "t1", lastSeenAt: 0 } as unknown as Session,
  expireMs,
});
const member: Membership = { roles: 1, secondFactor: false, factorRequired: false };

function liveCache(options: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const clock = { now: 0 };
  const cache = new AuthCache({
    maxEntries: options.maxEntries ?? 100,
    maxAgeMs: options.maxAgeMs ?? 1000,
    now: () => clock.now,
  });
  cache.onLive(true);
  return { cache, clock };
}

describe("AuthCache", () => {
  test("answers what was put while nothing has changed since the stamp", () => {
    const { cache } = liveCache();
    cache.putSession("s1", sessionOf("u1"), cache.stamp());
    cache.putMember("u1", "t1", member, cache.stamp());
    expect(cache.getSession("s1")?.sess.userId).toBe("u1");
    expect(cache.getMember("u1", "t1")).toEqual(member);
    expect(cache.getMember("u1", "t2")).toBeUndefined();
  });

  test("drops a value read before a change that was notified before the put", () => {
    const { cache } = liveCache();
    const stamp = cache.stamp();
    cache.onNotify("s:other");
    cache.putSession("s1", sessionOf("u1"), stamp);
    cache.putMember("u1", "t1", member, stamp);
    expect(cache.getSession("s1")).toBeUndefined();
    expect(cache.getMember("u1", "t1")).toBeUndefined();
  });

  test("a session written but not kept takes what was kept of it before with it", () => {
    const { cache } = liveCache();
    cache.putSession("s1", sessionOf("before"), cache.stamp());
    const stamp = cache.stamp();
    // Another session's notification arrives while this one's new row is being written.
    cache.onNotify("s:other");
    cache.putSession("s1", sessionOf("after"), stamp);
    expect(cache.getSession("s1")).toBeUndefined();
  });

  test("forgets a session on its notification, and every membership of a user on theirs", () => {
    const { cache } = liveCache();
    cache.putSession("s1", sessionOf("u1"), cache.stamp());
    cache.putSession("s2", sessionOf("u2"), cache.stamp());
    cache.putMember("u1", "t1", member, cache.stamp());
    cache.putMember("u1", "t2", member, cache.stamp());
    cache.putMember("u2", "t1", member, cache.stamp());
    cache.onNotify("s:s1");
    cache.onNotify("u:u1");
    expect(cache.getSession("s1")).toBeUndefined();
    expect(cache.getSession("s2")).toBeDefined();
    expect(cache.getMember("u1", "t1")).toBeUndefined();
    expect(cache.getMember("u1", "t2")).toBeUndefined();
    expect(cache.getMember("u2", "t1")).toEqual(member);
  });

  test("forgets everything on a notification it does not understand", () => {
    const { cache } = liveCache();
    cache.putSession("s1", sessionOf("u1"), cache.stamp());
    cache.putMember("u1", "t1", member, cache.stamp());
    cache.onNotify("?");
    expect(cache.getSession("s1")).toBeUndefined();
    expect(cache.getMember("u1", "t1")).toBeUndefined();
  });

  test("keeps nothing while the listening connection is down, since a change could be missed", () => {
    const { cache } = liveCache();
    cache.putSession("s1", sessionOf("u1"), cache.stamp());
    cache.onLive(false);
    expect(cache.getSession("s1")).toBeUndefined();
    cache.putSession("s1", sessionOf("u1"), cache.stamp());
    cache.putMember("u1", "t1", member, cache.stamp());
    expect(cache.getSession("s1")).toBeUndefined();
    expect(cache.getMember("u1", "t1")).toBeUndefined();
    cache.onLive(true);
    cache.putSession("s1", sessionOf("u1"), cache.stamp());
    expect(cache.getSession("s1")).toBeDefined();
  });

  test("never answers an expired session or an entry older than the age bound", () => {
    const { cache, clock } = liveCache({ maxAgeMs: 1000 });
    cache.putSession("short", sessionOf("u1", 500), cache.stamp());
    cache.putSession("long", sessionOf("u2", 60_000), cache.stamp());
    cache.putMember("u1", "t1", member, cache.stamp());
    clock.now = 500;
    expect(cache.getSession("short")).toBeUndefined();
    expect(cache.getSession("long")).toBeDefined();
    clock.now = 1001;
    expect(cache.getSession("long")).toBeUndefined();
    expect(cache.getMember("u1", "t1")).toBeUndefined();
  });

  test("holds at most maxEntries, letting the oldest go", () => {
    const { cache } = liveCache({ maxEntries: 2 });
    for (const sid of ["s1", "s2", "s3"]) cache.putSession(sid, sessionOf(sid), cache.stamp());
    for (const user of ["u1", "u2", "u3"]) cache.putMember(user, "t1", member, cache.stamp());
    expect(cache.getSession("s1")).toBeUndefined();
    expect(cache.getSession("s3")).toBeDefined();
    expect(cache.getMember("u1", "t1")).toBeUndefined();
    expect(cache.getMember("u2", "t1")).toEqual(member);
    expect(cache.getMember("u3", "t1")).toEqual(member);
  });

  test("records a touch in the cached session, so requests beside it see the session as fresh", () => {
    const { cache } = liveCache();
    cache.putSession("s1", sessionOf("u1"), cache.stamp());
    cache.touched("s1", 777);
    expect(cache.getSession("s1")?.sess.lastSeenAt).toBe(777);
  });
});

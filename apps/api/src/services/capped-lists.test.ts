import { describe, expect, test } from "vitest";
import { CappedLists } from "./capped-lists.js";

function liveLists(options: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const clock = { now: 0 };
  const lists = new CappedLists({
    maxEntries: options.maxEntries ?? 100,
    maxAgeMs: options.maxAgeMs ?? 1000,
    now: () => clock.now,
  });
  lists.onLive(true);
  return { lists, clock };
}

describe("CappedLists", () => {
  test("knows a tenant's list once it was found capped, and no other list or tenant", () => {
    const { lists } = liveLists();
    expect(lists.has("t1", "all")).toBe(false);
    lists.put("t1", "all", lists.stamp());
    expect(lists.has("t1", "all")).toBe(true);
    expect(lists.has("t1", "today")).toBe(false);
    expect(lists.has("t2", "all")).toBe(false);
  });

  test("a notification for a tenant forgets its lists only; '*' forgets every tenant's", () => {
    const { lists } = liveLists();
    lists.put("t1", "all", lists.stamp());
    lists.put("t2", "all", lists.stamp());
    lists.onNotify("t1");
    expect(lists.has("t1", "all")).toBe(false);
    expect(lists.has("t2", "all")).toBe(true);
    lists.put("t1", "all", lists.stamp());
    lists.onNotify("*");
    expect(lists.has("t1", "all")).toBe(false);
    expect(lists.has("t2", "all")).toBe(false);
  });

  test("a verdict read before a change is not kept when it is put after the change's notification", () => {
    const { lists } = liveLists();
    const stamp = lists.stamp();
    lists.onNotify("t2");
    lists.put("t1", "all", stamp);
    expect(lists.has("t1", "all")).toBe(false);
    lists.forget("t1");
    lists.put("t1", "all", lists.stamp());
    expect(lists.has("t1", "all")).toBe(true);
  });

  test("keeps nothing while notifications could be missed, and forgets all when they could have been", () => {
    const lists = new CappedLists({ maxEntries: 100, maxAgeMs: 1000 });
    lists.put("t1", "all", lists.stamp());
    expect(lists.has("t1", "all")).toBe(false);
    lists.onLive(true);
    lists.put("t1", "all", lists.stamp());
    lists.onLive(false);
    expect(lists.has("t1", "all")).toBe(false);
    lists.put("t1", "all", lists.stamp());
    expect(lists.has("t1", "all")).toBe(false);
  });

  test("trusts a verdict no longer than its age bound", () => {
    const { lists, clock } = liveLists({ maxAgeMs: 1000 });
    lists.put("t1", "all", lists.stamp());
    clock.now = 1000;
    expect(lists.has("t1", "all")).toBe(true);
    clock.now = 1001;
    expect(lists.has("t1", "all")).toBe(false);
  });

  test("holds at most maxEntries lists, making room by the tenant put first", () => {
    const { lists } = liveLists({ maxEntries: 3 });
    lists.put("t1", "a", lists.stamp());
    lists.put("t1", "b", lists.stamp());
    lists.put("t2", "a", lists.stamp());
    lists.put("t2", "a", lists.stamp());
    expect(lists.has("t1", "a")).toBe(true);
    lists.put("t3", "a", lists.stamp());
    expect(lists.has("t1", "a")).toBe(false);
    expect(lists.has("t1", "b")).toBe(false);
    expect(lists.has("t2", "a")).toBe(true);
    expect(lists.has("t3", "a")).toBe(true);
  });
});

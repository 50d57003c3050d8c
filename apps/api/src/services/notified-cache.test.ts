import { describe, expect, test } from "vitest";
import { GroupedEntries } from "./notified-cache.js";

function entries(options: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const clock = { now: 0 };
  const kept = new GroupedEntries<string>({
    maxEntries: options.maxEntries ?? 100,
    maxAgeMs: options.maxAgeMs ?? 1000,
    now: () => clock.now,
  });
  return { kept, clock };
}

// NotifiedCache itself (stamps, listening, clearing) is proven through both of its caches, in
// auth-cache.test.ts and capped-lists.test.ts.
describe("GroupedEntries", () => {
  test("answers each entry by its group and key, and drops a group whole", () => {
    const { kept } = entries();
    kept.set("u1", "t1", "a");
    kept.set("u1", "t2", "b");
    kept.set("u2", "t1", "c");
    expect([kept.get("u1", "t1"), kept.get("u1", "t2"), kept.get("u2", "t1")]).toEqual(["a", "b", "c"]);
    expect(kept.get("u2", "t2")).toBeUndefined();
    kept.drop("u1");
    expect(kept.get("u1", "t1")).toBeUndefined();
    expect(kept.get("u1", "t2")).toBeUndefined();
    expect(kept.get("u2", "t1")).toBe("c");
  });

  test("answers an entry no longer than its age bound, counting from when it was last put", () => {
    const { kept, clock } = entries({ maxAgeMs: 1000 });
    kept.set("u1", "t1", "a");
    clock.now = 800;
    kept.set("u1", "t1", "b");
    clock.now = 1500;
    expect(kept.get("u1", "t1")).toBe("b");
    clock.now = 1801;
    expect(kept.get("u1", "t1")).toBeUndefined();
  });

  test("holds at most maxEntries, making room by the group put first; putting a known entry makes none", () => {
    const { kept } = entries({ maxEntries: 3 });
    kept.set("g1", "a", "1");
    kept.set("g1", "b", "2");
    kept.set("g2", "a", "3");
    kept.set("g2", "a", "4");
    kept.set("g1", "b", "5");
    expect([kept.get("g1", "a"), kept.get("g1", "b"), kept.get("g2", "a")]).toEqual(["1", "5", "4"]);
    kept.set("g3", "a", "6");
    expect(kept.get("g1", "a")).toBeUndefined();
    expect(kept.get("g1", "b")).toBeUndefined();
    expect(kept.get("g2", "a")).toBe("4");
    expect(kept.get("g3", "a")).toBe("6");
  });

  test("an expired entry frees its room, and its emptied group is not what room is made by", () => {
    const { kept, clock } = entries({ maxEntries: 2, maxAgeMs: 1000 });
    kept.set("old", "a", "1");
    clock.now = 900;
    kept.set("g2", "a", "2");
    clock.now = 1500;
    expect(kept.get("old", "a")).toBeUndefined();
    kept.set("g3", "a", "3");
    expect(kept.get("g2", "a")).toBe("2");
    expect(kept.get("g3", "a")).toBe("3");
  });

  test("clear forgets every group", () => {
    const { kept } = entries({ maxEntries: 2 });
    kept.set("g1", "a", "1");
    kept.set("g2", "a", "2");
    kept.clear();
    expect(kept.get("g1", "a")).toBeUndefined();
    kept.set("g3", "a", "3");
    kept.set("g4", "a", "4");
    expect(kept.get("g3", "a")).toBe("3");
    expect(kept.get("g4", "a")).toBe("4");
  });
});

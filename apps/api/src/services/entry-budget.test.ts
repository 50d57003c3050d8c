import { describe, expect, test } from "vitest";
import { EntryBudget } from "./entry-budget.js";

describe("EntryBudget", () => {
  const limits = { free: 1_000, burst: 10_000, perSecond: 1_000 };

  test("never charges a body within its free entries, however many come", () => {
    const budget = new EntryBudget(limits, () => 0);
    for (let i = 0; i < 10_000; i++) expect(budget.charge("ip:a", 1_000)).toBe(0);
  });

  test("pays a burst, refuses what it cannot pay with the seconds to wait, and refills with time", () => {
    let now = 0;
    const budget = new EntryBudget(limits, () => now);
    // 4,000 past the free entries each: two paid, the third would go over by 2,000.
    expect(budget.charge("ip:a", 5_000)).toBe(0);
    expect(budget.charge("ip:a", 5_000)).toBe(0);
    expect(budget.charge("ip:a", 5_000)).toBe(2);
    // A refusal costs nothing: after the two seconds it named, the body is paid.
    now = 2_000;
    expect(budget.charge("ip:a", 5_000)).toBe(0);
    expect(budget.charge("ip:a", 1_001)).toBe(1);
  });

  test("keeps each client's budget apart", () => {
    const budget = new EntryBudget(limits, () => 0);
    expect(budget.charge("ip:a", 11_000)).toBe(0);
    expect(budget.charge("ip:a", 2_000)).toBeGreaterThan(0);
    expect(budget.charge("user:b", 11_000)).toBe(0);
  });
});

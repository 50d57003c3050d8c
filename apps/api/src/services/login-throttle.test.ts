import { describe, expect, test } from "vitest";
import { LoginThrottle } from "./login-throttle.js";

const limits = { windowMs: 1000, perAccountAndAddress: 2, perAccount: 4, perAddress: 6 };

describe("LoginThrottle", () => {
  test("blocks an account at an address after its failures, and frees it when the window passes", () => {
    let now = 0;
    const throttle = new LoginThrottle(limits, () => now);
    throttle.recordFailure("a", "ip1");
    expect(throttle.isBlocked("a", "ip1")).toBe(false);
    throttle.recordFailure("a", "ip1");
    expect(throttle.isBlocked("a", "ip1")).toBe(true);
    expect(throttle.isBlocked("b", "ip1")).toBe(false);
    expect(throttle.isBlocked("a", "ip2")).toBe(false);
    now = 1001;
    expect(throttle.isBlocked("a", "ip1")).toBe(false);
  });

  test("blocks an account guessed from many addresses", () => {
    const throttle = new LoginThrottle(limits, () => 0);
    for (const ip of ["1", "2", "3", "4"]) throttle.recordFailure("a", ip);
    expect(throttle.isBlocked("a", "5")).toBe(true);
  });

  test("blocks an address trying many accounts", () => {
    const throttle = new LoginThrottle(limits, () => 0);
    for (const account of ["a", "b", "c", "d", "e", "f"]) throttle.recordFailure(account, "ip");
    expect(throttle.isBlocked("g", "ip")).toBe(true);
  });

  test("clears the pair after a success", () => {
    const throttle = new LoginThrottle(limits, () => 0);
    throttle.recordFailure("a", "ip");
    throttle.recordSuccess("a", "ip");
    throttle.recordFailure("a", "ip");
    expect(throttle.isBlocked("a", "ip")).toBe(false);
  });
});

import { describe, expect, test } from "vitest";
import { Role } from "@core-care/schema";
import { factorRequiredFor, secondFactorRule } from "./session-grant.js";

describe("secondFactorRule", () => {
  test.each([
    // enabled, proven, required → decision
    [false, false, false, "admit"],
    [false, false, true, "enrol"],
    // A proof kept from before the factor was turned off does not stand for one now required.
    [false, true, true, "enrol"],
    [false, true, false, "admit"],
    [true, false, false, "code"],
    [true, false, true, "code"],
    [true, true, false, "admit"],
    [true, true, true, "admit"],
  ] as const)("enabled %s, proven %s, required %s: %s", (enabled, proven, required, decision) => {
    expect(secondFactorRule({ enabled, proven, required })).toBe(decision);
  });
});

describe("factorRequiredFor", () => {
  test.each([
    [Role.user, false],
    [Role.admin, true],
    [Role.sysAdmin, true],
    [Role.user | Role.admin, true],
    [Role.none, false],
  ])("roles %i in a practice that requires it: %s", (roles, required) => {
    expect(factorRequiredFor(roles, true)).toBe(required);
    expect(factorRequiredFor(roles, false)).toBe(false);
  });
});

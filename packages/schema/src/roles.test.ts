import { describe, expect, test } from "vitest";
import { Role, hasRole, parseRolesText, roleNames } from "./roles.js";

describe("Role", () => {
  test("uses the spec's numeric values", () => {
    expect(Role).toEqual({ none: 0, user: 1, admin: 2, sysAdmin: 4 });
  });
});

describe("hasRole", () => {
  test.each([
    [Role.user, "user", true],
    [Role.user, "admin", false],
    [Role.user | Role.admin, "admin", true],
    [Role.sysAdmin, "user", false],
    [0, "none", true],
    [Role.user, "none", false],
  ] as const)("roles %i has %s: %s", (roles, role, expected) => {
    expect(hasRole(roles, role)).toBe(expected);
  });
});

describe("parseRolesText", () => {
  test.each([
    ["", 1],
    ["User", 1],
    ["admin, user", 3],
    ["SysAdmin", 4],
    ["3", 3],
    ["none", 0],
  ])("reads %j as %i", (text, expected) => {
    expect(parseRolesText(text)).toBe(expected);
  });

  test("answers undefined for a word that is not a role", () => {
    expect(parseRolesText("superuser")).toBeUndefined();
    expect(parseRolesText("9")).toBeUndefined();
  });
});

describe("roleNames", () => {
  test("lists the names of the flags set", () => {
    expect(roleNames(Role.user | Role.sysAdmin)).toEqual(["user", "sysAdmin"]);
    expect(roleNames(0)).toEqual(["none"]);
  });
});

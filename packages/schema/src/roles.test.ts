import { describe, expect, test } from "vitest";
import {
  Role,
  canManageUser,
  effectiveRoles,
  hasRole,
  isRoleChangeAllowed,
  keepHiddenRoles,
  parseRolesText,
  roleNames,
} from "./roles.js";

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

describe("bounded roles", () => {
  const { user, admin, sysAdmin } = Role;

  test("a sysAdmin acts as admin and user, an admin as user, stored flags aside", () => {
    expect(effectiveRoles(sysAdmin)).toBe(user | admin | sysAdmin);
    expect(effectiveRoles(admin)).toBe(user | admin);
    expect(effectiveRoles(user)).toBe(user);
    expect(effectiveRoles(0)).toBe(0);
  });

  test.each([
    ["an admin", admin, "a user", user, true],
    ["an admin", admin, "another admin", user | admin, true],
    ["an admin", admin, "a sysAdmin", sysAdmin, false],
    ["an admin", admin, "a user who is also sysAdmin", user | sysAdmin, false],
    ["a user", user, "a user", user, false],
    ["a sysAdmin", sysAdmin, "a sysAdmin", sysAdmin, true],
    ["a sysAdmin", sysAdmin, "an admin", admin, true],
    ["nobody", 0, "a user", user, false],
  ])("%s may manage %s: %s", (_e, editor, _t, target, expected) => {
    expect(canManageUser(editor, target)).toBe(expected);
  });

  test("nobody gives or takes a role they do not hold", () => {
    expect(isRoleChangeAllowed(admin, user, user | admin)).toBe(true);
    expect(isRoleChangeAllowed(admin, user | admin, user)).toBe(true);
    expect(isRoleChangeAllowed(admin, user, user | sysAdmin)).toBe(false);
    expect(isRoleChangeAllowed(admin, sysAdmin, user)).toBe(false);
    expect(isRoleChangeAllowed(user, user, user | admin)).toBe(false);
    expect(isRoleChangeAllowed(sysAdmin, user, sysAdmin)).toBe(true);
  });

  test("a form keeps the roles it does not show", () => {
    expect(keepHiddenRoles(sysAdmin | user, admin, user | admin)).toBe(sysAdmin | admin);
    expect(keepHiddenRoles(user, user | admin, user | admin)).toBe(user | admin);
  });
});

import { z } from "zod";

/** Role bit flags (SPEC 3, 6): none 0, user 1, admin 2, sysAdmin 4. Roles combine as bit flags. */
export const Role = { none: 0, user: 1, admin: 2, sysAdmin: 4 } as const;
export type RoleName = keyof typeof Role;
export const ROLE_NAMES = ["none", "user", "admin", "sysAdmin"] as const satisfies readonly RoleName[];

/** Any combination of the role flags. */
export const RolesSchema = z
  .number()
  .int()
  .min(0)
  .max(Role.user | Role.admin | Role.sysAdmin);
export type Roles = z.infer<typeof RolesSchema>;

/** True when `roles` carries `role` (an admin also holds the user flag only if it was granted). */
export function hasRole(roles: number, role: RoleName): boolean {
  const flag = Role[role];
  return flag === 0 ? roles === 0 : (roles & flag) === flag;
}

/**
 * Reads the test form's free-text roles ('User', 'Admin, User', 'sysAdmin', '3') into bit flags;
 * undefined when a word is not a role name.
 */
export function parseRolesText(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return Role.user;
  if (/^\d+$/.test(trimmed)) {
    const n = Number(trimmed);
    return RolesSchema.safeParse(n).success ? n : undefined;
  }
  let roles = 0;
  for (const word of trimmed.split(/[\s,|;]+/)) {
    const name = ROLE_NAMES.find((r) => r.toLowerCase() === word.toLowerCase());
    if (name === undefined) return undefined;
    roles |= Role[name];
  }
  return roles;
}

/** Role names carried by `roles`, for display. */
export function roleNames(roles: number): RoleName[] {
  if (roles === 0) return ["none"];
  return ROLE_NAMES.filter((r) => r !== "none" && hasRole(roles, r));
}

const STAFF_FLAGS = Role.user | Role.admin | Role.sysAdmin;

/**
 * The roles `roles` acts with: a sysAdmin also acts as admin and user, an admin as user
 * (docs/decisions/008-permission-table.md: admin routes also accept sysAdmin). The stored flags stay as
 * they were granted.
 */
export function effectiveRoles(roles: number): number {
  let effective = roles & STAFF_FLAGS;
  if ((effective & Role.sysAdmin) !== 0) effective |= Role.admin | Role.user;
  if ((effective & Role.admin) !== 0) effective |= Role.user;
  return effective;
}

/** The role flags an editor may give or take: only those they hold themselves. */
export function grantableRoles(editorRoles: number): number {
  return (editorRoles & (Role.admin | Role.sysAdmin)) === 0 ? 0 : effectiveRoles(editorRoles);
}

/**
 * Whether an editor may change or remove a user: only an admin or sysAdmin, and only a user who holds no
 * role the editor does not (an admin never edits a sysAdmin).
 */
export function canManageUser(editorRoles: number, targetRoles: number): boolean {
  const grantable = grantableRoles(editorRoles);
  return grantable !== 0 && (effectiveRoles(targetRoles) & ~grantable) === 0;
}

/** Whether going from `before` to `after` gives or takes only roles the editor holds. */
export function isRoleChangeAllowed(editorRoles: number, before: number, after: number): boolean {
  return ((before ^ after) & ~grantableRoles(editorRoles)) === 0;
}

/**
 * The roles a form sends when it shows only the flags in `shown`: those chosen among them, and every
 * other flag kept as it was, so saving a form never takes a role it did not show.
 */
export function keepHiddenRoles(before: number, chosen: number, shown: number): number {
  return (before & ~shown) | (chosen & shown);
}

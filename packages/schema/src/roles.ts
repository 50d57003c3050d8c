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

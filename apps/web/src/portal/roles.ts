import { Role } from "../api/types";

const LABELS = [
  [Role.user, "User"],
  [Role.admin, "Admin"],
  [Role.sysAdmin, "System admin"],
] as const;

/** The roles of a bit-flag value in words ("User, Admin"), or "None". */
export function roleLabels(roles: number): string {
  const names = LABELS.filter(([flag]) => (roles & flag) === flag).map(([, label]) => label);
  return names.length > 0 ? names.join(", ") : "None";
}

/** The choosable roles with their flags. */
export const ROLE_CHOICES = LABELS;

/** Role bit flags (SPEC 3): none 0, user 1, admin 2, sysAdmin 4. */
export const Role = { none: 0, user: 1, admin: 2, sysAdmin: 4 } as const;
export type RoleName = keyof typeof Role;

/** The `tenant` value of a user of several tenants. */
export const MULTI_TENANT = "multi";

/** True when `roles` carries the flag of `role`. */
export function hasRole(roles: number, role: Exclude<RoleName, "none">): boolean {
  return (roles & Role[role]) === Role[role];
}

export type {
  Address,
  ClientConfig,
  Interface,
  InterfaceType,
  Location,
  Me,
  Patient,
  PatientInput,
  PatientSurvey,
  ReportSummary,
  SurveyResult,
  SurveyResultListItem,
  SurveyResultSummary,
  SurveySummary,
  Tenant,
  TenantRef,
  TenantSettings,
  User,
  SecondFactorNeeded,
  SignInEnrolled,
  TotpEnrolment,
  TotpStatus,
  RecoveryCodes,
} from "@core-care/schema";

/** The list envelope of every list call. */
export interface ListResponse<T> {
  items: T[];
  total: number;
}

/** A keyset-paged list: `total` counts at most 1,000 (then `totalCapped`), cursors lead either way. */
export type { PagedList } from "@core-care/schema";

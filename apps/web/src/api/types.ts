// Role flags are data here (a user's roles, edited on the users screen); what a user may do comes from
// the server's permission table as `Me.may`, never from the roles.
export { MULTI_TENANT, Role, type RoleName } from "@core-care/schema";

export type {
  Address,
  ClientConfig,
  Interface,
  InterfaceType,
  Location,
  Me,
  May,
  UiAction,
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

/** Role bit flags (SPEC 3): none 0, user 1, admin 2, sysAdmin 4. */
export const Role = { none: 0, user: 1, admin: 2, sysAdmin: 4 } as const;
export type RoleName = keyof typeof Role;

/** The `tenant` value of a user of several tenants. */
export const MULTI_TENANT = "multi";

/** True when `roles` carries the flag of `role`. */
export function hasRole(roles: number, role: Exclude<RoleName, "none">): boolean {
  return (roles & Role[role]) === Role[role];
}

export interface TenantSettings {
  teleAwvEmail: boolean;
  alternateFalls: boolean;
  safetyAlertEmail?: string;
}

export interface Tenant {
  id: string;
  name: string;
  settings: TenantSettings;
}

export interface TenantRef {
  id: string;
  name: string;
}

export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  roles: number;
  tenant: string;
  tenants: string[];
}

/** The signed-in user and the session's current tenant. */
export interface Me {
  user: User;
  tenant: Tenant;
}

/** GET /api/config. */
export interface ClientConfig {
  idleTimeoutSeconds: number;
  keepaliveIntervalSeconds: number;
  keepaliveMinDelaySeconds: number;
  defaultUrl: string;
  environment: "development" | "test" | "production";
}

/** The list envelope of every list call. */
export interface ListResponse<T> {
  items: T[];
  total: number;
}

export interface Address {
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
}

export interface Patient {
  id: string;
  mrn: string;
  firstName: string;
  lastName: string;
  dob: string;
  sex: "F" | "M" | "U";
  email?: string;
  phone?: string;
  address?: Address;
  ethnicity?: string;
  race?: string;
  locationId?: string;
}

export interface PatientSurvey {
  surveyId: string;
  title: string;
  assignedAt: string;
}

export interface SurveySummary {
  id: string;
  title: string;
  version: number;
  canSubscribeTo: boolean;
  tenantId: string;
  readOnly: boolean;
}

export interface SurveyResultSummary {
  id: string;
  surveyId: string;
  surveyTitle: string;
  surveyVersion: number;
  patientId: string;
  patientName: string;
  isSubmitted: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface SurveyResultDetail extends SurveyResultSummary {
  answers: Record<string, unknown>;
}

export interface ReportSummary {
  id: string;
  title: string;
  version: number;
  updatedAt?: string;
}

export interface Location {
  id: string;
  name: string;
  code: string;
}

export type InterfaceType = "hl7-mllp" | "cda-mllp" | "cda-sftp" | "sftp" | "fhir-http";

export interface Interface {
  id: string;
  name: string;
  type: InterfaceType;
  host: string;
  port: number;
  username?: string;
  path?: string;
  sendingApplication: string;
  sendingFacility: string;
  receivingApplication: string;
  receivingFacility: string;
  hasSecret: boolean;
}

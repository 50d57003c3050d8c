import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type {
  Answers,
  DeliveryFormat,
  DeliveryStatus,
  InterfaceType,
  Survey,
  TenantSettings,
} from "@core-care/schema";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const createdAt = () => ts("created_at").notNull().defaultNow();
const updatedAt = () => ts("updated_at").notNull().defaultNow();

/** Tenants (practices). Their `settings` hold the per-tenant switches of the spec. */
export const tenants = pgTable("tenants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  settings: jsonb("settings").$type<TenantSettings>().notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Portal users. A user belongs to tenants through `user_tenants`; e-mails are stored in lower case. */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    passwordHash: text("password_hash").notNull(),
    passwordChangedAt: ts("password_changed_at").notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

/** Membership of a user in a tenant, with the role flags the user holds there. */
export const userTenants = pgTable(
  "user_tenants",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roles: integer("roles").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] }), index("user_tenants_user_idx").on(t.userId)],
);

/** Server-side sessions of @fastify/session; `expire` is the idle deadline. */
export const sessions = pgTable(
  "sessions",
  {
    sid: text("sid").primaryKey(),
    sess: jsonb("sess").$type<Record<string, unknown>>().notNull(),
    userId: text("user_id"),
    expire: ts("expire").notNull(),
  },
  (t) => [index("sessions_expire_idx").on(t.expire), index("sessions_user_idx").on(t.userId)],
);

/** Single-use password reset tokens; only a hash of the token is kept. */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("password_resets_token_key").on(t.tokenHash),
    index("password_resets_user_idx").on(t.userId),
  ],
);

/** Patients; deleting one keeps the row (results stay attributable) and hides it. */
export const patients = pgTable(
  "patients",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    mrn: text("mrn").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    dob: date("dob", { mode: "string" }).notNull(),
    sex: text("sex").$type<"F" | "M" | "U">().notNull(),
    email: text("email"),
    phone: text("phone"),
    address: jsonb("address").$type<{ street: string; city: string; state: string; zip: string }>(),
    ethnicity: text("ethnicity"),
    race: text("race"),
    locationId: text("location_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("patients_mrn_key")
      .on(t.tenantId, t.mrn)
      .where(sql`${t.deletedAt} is null`),
    index("patients_name_idx").on(t.tenantId, t.lastName, t.firstName),
  ],
);

/** Surveys assigned to a patient. */
export const patientSurveys = pgTable(
  "patient_surveys",
  {
    tenantId: text("tenant_id").notNull(),
    patientId: text("patient_id").notNull(),
    surveyId: text("survey_id").notNull(),
    assignedBy: text("assigned_by"),
    assignedAt: ts("assigned_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.patientId, t.surveyId] })],
);

/**
 * The columns surveys and reports share, in two parts so that a survey's own column keeps its place between
 * them in the tables' DDL.
 */
function documentHeadColumns() {
  return {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    title: text("title").notNull(),
    version: integer("version").notNull(),
  };
}

function documentTailColumns<Definition>() {
  return {
    definition: jsonb("definition").$type<Definition>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  };
}

/** The columns survey_versions and report_versions share, after the tenant and document ids. */
function versionColumns<Definition>() {
  return {
    version: integer("version").notNull(),
    definition: jsonb("definition").$type<Definition>().notNull(),
    savedBy: text("saved_by"),
    savedAt: ts("saved_at").notNull().defaultNow(),
  };
}

/** The current version of each survey; `definition` is the whole survey as saved. */
export const surveys = pgTable(
  "surveys",
  {
    ...documentHeadColumns(),
    canSubscribeTo: boolean("can_subscribe_to").notNull().default(false),
    ...documentTailColumns<Survey>(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index("surveys_subscribe_idx").on(t.canSubscribeTo)],
);

/** A kept copy of every saved survey version; results are pinned to one of them. */
export const surveyVersions = pgTable(
  "survey_versions",
  {
    tenantId: text("tenant_id").notNull(),
    surveyId: text("survey_id").notNull(),
    ...versionColumns<Survey>(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.surveyId, t.version] })],
);

export interface ReportBody {
  title: string;
  script: string;
  markup: string;
  mock: unknown;
  clinical: boolean;
}

/** Reports: a script, a markup template and sample data, versioned like surveys. */
export const reports = pgTable(
  "reports",
  { ...documentHeadColumns(), ...documentTailColumns<ReportBody>() },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

/** A kept copy of every saved report version. */
export const reportVersions = pgTable(
  "report_versions",
  {
    tenantId: text("tenant_id").notNull(),
    reportId: text("report_id").notNull(),
    ...versionColumns<ReportBody>(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.reportId, t.version] })],
);

/** Survey results: answers as JSONB, pinned to the survey version they were taken on. */
export const surveyResults = pgTable(
  "survey_results",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    surveyId: text("survey_id").notNull(),
    surveyTenantId: text("survey_tenant_id").notNull(),
    surveyVersion: integer("survey_version").notNull(),
    patientId: text("patient_id").notNull(),
    clientRequestId: text("client_request_id").notNull(),
    answers: jsonb("answers").$type<Answers>().notNull(),
    isSubmitted: boolean("is_submitted").notNull().default(false),
    submittedAt: ts("submitted_at"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("survey_results_client_request_key").on(t.tenantId, t.clientRequestId),
    index("survey_results_created_idx").on(t.tenantId, t.createdAt),
    index("survey_results_patient_idx").on(t.tenantId, t.patientId),
  ],
);

/** Clinic sites of a tenant. */
export const locations = pgTable(
  "locations",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    name: text("name").notNull(),
    code: text("code").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("locations_code_key").on(t.tenantId, t.code),
  ],
);

/** Delivery endpoints of a tenant. `secret` is stored for the transports and never answered. */
export const interfaces = pgTable(
  "interfaces",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    name: text("name").notNull(),
    type: text("type").$type<InterfaceType>().notNull(),
    host: text("host").notNull(),
    port: integer("port").notNull(),
    username: text("username"),
    path: text("path"),
    secret: text("secret"),
    sendingApplication: text("sending_application").notNull().default(""),
    sendingFacility: text("sending_facility").notNull().default(""),
    receivingApplication: text("receiving_application").notNull().default(""),
    receivingFacility: text("receiving_facility").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

/** The delivery outbox: one row per send of a result to an interface, with its attempts. */
export const deliveries = pgTable(
  "deliveries",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    resultId: text("result_id").notNull(),
    interfaceId: text("interface_id").notNull(),
    locationId: text("location_id"),
    format: text("format").$type<DeliveryFormat>().notNull(),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    lastError: text("last_error"),
    ack: text("ack"),
    controlId: text("control_id").notNull(),
    payload: text("payload"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deliveredAt: ts("delivered_at"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("deliveries_control_id_key").on(t.tenantId, t.controlId),
    index("deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("deliveries_result_idx").on(t.tenantId, t.resultId),
  ],
);

/** Tele-AWV invitations: a hash of the single-use token of the e-mailed link. */
export const awvInvitations = pgTable(
  "awv_invitations",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    tokenHash: text("token_hash").notNull(),
    patientId: text("patient_id").notNull(),
    ptEmail: text("pt_email").notNull(),
    ptS: boolean("pt_s").notNull(),
    ptPY: boolean("pt_py").notNull(),
    pt100: boolean("pt_100").notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    resultId: text("result_id"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("awv_invitations_token_key").on(t.tokenHash),
  ],
);

/** Safety alerts raised by submitted results, open until a user acknowledges them. */
export const safetyAlerts = pgTable(
  "safety_alerts",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    resultId: text("result_id").notNull(),
    patientId: text("patient_id").notNull(),
    kind: text("kind").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
    acknowledgedAt: ts("acknowledged_at"),
    acknowledgedBy: text("acknowledged_by"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("safety_alerts_result_kind_key").on(t.tenantId, t.resultId, t.kind),
  ],
);

/** Who read or changed what, in which tenant, when and from where. Never PHI. */
export const auditEvents = pgTable(
  "audit_events",
  {
    tenantId: text("tenant_id").notNull(),
    id: text("id").notNull(),
    userId: text("user_id"),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    ip: text("ip"),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index("audit_events_at_idx").on(t.tenantId, t.at)],
);

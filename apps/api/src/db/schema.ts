import { sql } from "drizzle-orm";
import {
  bigint,
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
  InterfaceSettings,
  InterfaceType,
  Survey,
  TenantSettings,
} from "@core-care/schema";
import { SEARCH_TEXT_SQL } from "./fold.js";

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
    /** The confirmed TOTP secret (RFC 6238, base32) of the second factor; null when it is off. */
    totpSecret: text("totp_secret"),
    /** A secret being set up, until the user proves it with a code. */
    totpPendingSecret: text("totp_pending_secret"),
    /** The last 30-second step a code was accepted for: a code is never accepted twice. */
    totpLastStep: integer("totp_last_step"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

/**
 * One-time recovery codes of a user's second factor, for when the authenticator is lost. Only a SHA-256
 * hash of each code is kept (the codes are 60 random bits, so a fast hash is enough); a used code keeps
 * its row with `used_at` set and is never accepted again. Turning the second factor on replaces them all.
 */
export const totpRecoveryCodes = pgTable(
  "totp_recovery_codes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
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
    /** The language the patient reads (`en`, `es`): their invitation e-mails and patient screens. */
    preferredLanguage: text("preferred_language"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ts("deleted_at"),
    /** Names, MRN, e-mail and phone folded to lower case without accents, for search (src/db/fold.ts). */
    searchText: text("search_text").notNull().generatedAlwaysAs(sql.raw(SEARCH_TEXT_SQL)),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("patients_mrn_key")
      .on(t.tenantId, t.mrn)
      .where(sql`${t.deletedAt} is null`),
    // One index per sort of the list in the keyset's column order, tenant first, live rows only (MRN
    // sorts on patients_mrn_key: unique among live rows, so (mrn, id) is in mrn order).
    index("patients_name_idx")
      .on(t.tenantId, t.lastName, t.firstName, t.id)
      .where(sql`${t.deletedAt} is null`),
    index("patients_first_name_idx")
      .on(t.tenantId, t.firstName, t.lastName, t.id)
      .where(sql`${t.deletedAt} is null`),
    index("patients_dob_idx")
      .on(t.tenantId, t.dob, t.lastName, t.firstName, t.id)
      .where(sql`${t.deletedAt} is null`),
    // Without GIN's pending list ("fastupdate"): new patients go into the index as they are saved, so a
    // search never also reads a list of recent ones the index has not taken in yet (a search of 50,000
    // patients took 3.5x as long with a bulk load's pending list as after VACUUM had merged it).
    index("patients_search_idx").using("gin", t.searchText.op("gin_trgm_ops")).with({ fastupdate: false }),
    // The few removed patients, whose results every results list leaves out (an anti-join probe).
    index("patients_removed_idx")
      .on(t.tenantId, t.id)
      .where(sql`${t.deletedAt} is not null`),
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
    /**
     * The version's title, kept by PostgreSQL beside the definition: lists show it on every row, and
     * reading it out of the definition would unpack the whole survey once a row.
     */
    title: text("title")
      .notNull()
      .generatedAlwaysAs(sql`coalesce(definition->>'title', '')`),
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
    /**
     * The patient as the lists show them, copied from `patients` by triggers (migration 0014) and never
     * written by the API: set from the patient as a result is saved or moved, and rewritten on every
     * result of a patient whose name, MRN, date of birth or removal changes, in the same transaction.
     * A list page, its count, its export and a report then read `survey_results` alone instead of
     * looking up each row's patient. Null while no patient of that id exists.
     */
    patientFirstName: text("patient_first_name"),
    patientLastName: text("patient_last_name"),
    patientMrn: text("patient_mrn"),
    patientDob: date("patient_dob", { mode: "string" }),
    /** Whether the result's patient is removed: their results go from lists and reads with them. */
    patientRemoved: boolean("patient_removed").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("survey_results_client_request_key").on(t.tenantId, t.clientRequestId),
    // The list's keyset (created_at, id) after each filter it offers, tenant first. Every list and report
    // reads live results of live patients only, and the capped count of a list walks this index alone
    // (an index-only scan).
    index("survey_results_live_idx")
      .on(t.tenantId, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null and not ${t.patientRemoved}`),
    index("survey_results_patient_idx").on(t.tenantId, t.patientId, t.createdAt, t.id),
    index("survey_results_survey_idx").on(t.tenantId, t.surveyId, t.createdAt, t.id),
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
    /** The MRN's assigning authority in every format (HL7 PID-3.4, CDA, FHIR): its name and its OID. */
    assigningAuthority: text("assigning_authority").notNull().default(""),
    assigningAuthorityOid: text("assigning_authority_oid"),
    /** Delivery settings (`InterfaceSettingsSchema`): ACK timeout, retry delays, last attempt. */
    settings: jsonb("settings").$type<Partial<InterfaceSettings>>().notNull().default({}),
    /**
     * The queue position of the interface's last queued delivery. Queuing increments it, which
     * locks this row until the queuing transaction commits, so deliveries of one interface become
     * visible in the order of their positions (first in, first out).
     */
    queueTail: bigint("queue_tail", { mode: "number" }).notNull().default(0),
    /** MSH-11 (HL7 table 0103): P, T or D. */
    processingId: text("processing_id").$type<"P" | "T" | "D">().notNull().default("P"),
    /** SFTP: the confirmed host key fingerprint (`SHA256:…`); nothing is sent to a server without it. */
    hostKeySha256: text("host_key_sha256"),
    /** SFTP: mode of written files (e.g. 0o600); null means 0o600. */
    fileMode: integer("file_mode"),
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
    /** Position in its interface's queue (`interfaces.queue_tail` when queued); sent in this order. */
    queueSeq: bigint("queue_seq", { mode: "number" }).notNull().default(0),
    /** The process that claimed the attempt in progress (`host:pid:boot`), so a restart can take it back. */
    claimedBy: text("claimed_by"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("deliveries_control_id_key").on(t.tenantId, t.controlId),
    index("deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("deliveries_queue_idx").on(t.tenantId, t.interfaceId, t.queueSeq, t.id),
    index("deliveries_tenant_status_idx").on(t.tenantId, t.status, t.id),
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
    /** The language the e-mail was written in and the questionnaire opens in. */
    language: text("language").notNull().default("en"),
    /**
     * The patient's progress, saved as they go so that the same link resumes it; cleared in the commit
     * that submits it and once the link has expired.
     */
    draftAnswers: jsonb("draft_answers").$type<Record<string, unknown>>(),
    draftPage: integer("draft_page"),
    draftLanguage: text("draft_language"),
    draftSavedAt: ts("draft_saved_at"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("awv_invitations_token_key").on(t.tokenHash),
    index("awv_invitations_draft_expiry_idx")
      .on(t.expiresAt)
      .where(sql`${t.draftAnswers} is not null`),
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
    /** What changed, without PHI: roles from and to, the end of a hand-over, the route refused. */
    details: jsonb("details").$type<Record<string, unknown>>(),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("audit_events_at_idx").on(t.tenantId, t.at),
    // The audit log's filters: by the record touched (a patient's records) and by who acted.
    index("audit_events_entity_idx").on(t.tenantId, t.entityId),
    index("audit_events_user_idx").on(t.tenantId, t.userId, t.at),
  ],
);

/**
 * A tablet handed to a patient: the patient credential's binding to one patient, one survey and one
 * result. The browser holds it through a session row whose `sess.handoverId` names it; the staff
 * session of that browser ended at hand-over. `data_key` encrypts what the tablet keeps of the patient
 * between page loads; it is given only to the credential and is useless once the hand-over has ended.
 */
export const tabletHandovers = pgTable(
  "tablet_handovers",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    patientId: text("patient_id").notNull(),
    surveyId: text("survey_id").notNull(),
    clientRequestId: text("client_request_id").notNull(),
    resultId: text("result_id"),
    staffUserId: text("staff_user_id").notNull(),
    dataKey: text("data_key").notNull(),
    createdAt: createdAt(),
    endedAt: ts("ended_at"),
    /** submit, idle, staff (the Staff button), logout. */
    endReason: text("end_reason"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("tablet_handovers_open_idx")
      .on(t.createdAt)
      .where(sql`${t.endedAt} is null`),
  ],
);

/**
 * Failed password and code checks, kept in PostgreSQL so every API process sees the same counts. `key`
 * is a SHA-256 of what is counted (an account with an address, an account, an address), so no e-mail
 * or address is stored in the clear.
 */
export const loginThrottle = pgTable(
  "login_throttle",
  {
    key: text("key").primaryKey(),
    failures: integer("failures").notNull().default(0),
    windowStartedAt: ts("window_started_at").notNull().defaultNow(),
    blockedUntil: ts("blocked_until"),
    /** For an account-and-address pair: the last successful sign-in from that address. */
    lastSuccessAt: ts("last_success_at"),
    updatedAt: updatedAt(),
  },
  (t) => [index("login_throttle_updated_idx").on(t.updatedAt)],
);

/**
 * An invitation to a tenant, accepted with the e-mailed link: for a person who already has an account,
 * to join it (nothing of the account changes, and the tenant learns nothing of it, until they accept);
 * for a new account (`new_account`), to choose its first password.
 */
export const userInvitations = pgTable(
  "user_invitations",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roles: integer("roles").notNull(),
    invitedBy: text("invited_by"),
    /** The account was made with the invitation and has no password of its own yet. */
    newAccount: boolean("new_account").notNull().default(false),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("user_invitations_token_key").on(t.tokenHash),
    index("user_invitations_user_idx").on(t.userId),
  ],
);

/**
 * The API rate limit's counts, shared by every API process on one database: per caller key (a user,
 * a hand-over or an address), the hits of the current fixed window (`window_start`, epoch
 * milliseconds, the same boundaries in every process).
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: bigint("window_start", { mode: "number" }).notNull(),
  hits: integer("hits").notNull(),
});

/**
 * Inbound HL7 v2 messages (ADT from the practice's EHR), one row per sending facility and MSH-10
 * control id: the unique key makes a message apply once however often it is re-sent, on however many
 * servers (the server whose insert wins applies it; the others answer the ACK stored here). It is the
 * admin's log too, and holds no message body (PHI): the outcome, the patient's MRN, the field at fault.
 */
export const inboundMessages = pgTable(
  "inbound_messages",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    sendingFacility: text("sending_facility").notNull(),
    controlId: text("control_id").notNull(),
    messageType: text("message_type").notNull(),
    outcome: text("outcome").$type<"AA" | "AE" | "AR">().notNull(),
    action: text("action").$type<"created" | "updated">(),
    patientMrn: text("patient_mrn"),
    patientId: text("patient_id"),
    errorField: text("error_field"),
    error: text("error"),
    /** The acknowledgment sent, sent again for a repeat of the same control id. */
    ack: text("ack").notNull(),
    received: integer("received").notNull().default(1),
    receivedAt: ts("received_at").notNull().defaultNow(),
    lastReceivedAt: ts("last_received_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("inbound_messages_control_key").on(t.tenantId, t.sendingFacility, t.controlId),
    index("inbound_messages_received_idx").on(t.tenantId, t.receivedAt),
  ],
);

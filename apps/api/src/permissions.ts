import type { FastifyRequest } from "fastify";
import { hasRole, type May, type RoleName, type TenantSettings, type UiAction } from "@core-care/schema";

/**
 * Who may call what: one entry per route, keyed by the method and the path the router registered
 * (`request.routeOptions`), never by the raw URL. `plugins/access.ts` enforces it on every request;
 * a route with no entry is refused, and `src/permissions.int.test.ts` walks every registered route with
 * every credential kind and role against this table. Adding a route means adding its one line here.
 *
 * Credential kinds: a staff session (`staff`, with the roles any one of which admits), the tablet
 * patient credential (`tablet`), the Tele-AWV link's token (`teleAwv`), or none (`anyone`).
 *
 * A route that gives the browser's session a practice, a role or a patient credential says which way in
 * it is (`session`): its handler gives the session through `services/session-grant.ts` alone, which
 * applies the second-factor rule, and a session changed any other way is refused as the answer goes.
 */

/** Staff roles; `none` (0) holds none of them and is admitted nowhere a staff role is needed. */
export type StaffRole = Exclude<RoleName, "none">;

/** What a practice may let its plain users do beyond their defaults (tenant setting `usersMay`). */
export type UserGrant = "deleteRecords" | "resendDeliveries" | "acknowledgeAlerts";

/**
 * How far a patient credential reaches on a route it may call:
 * `survey`: only the survey it was given (`:id` of the path);
 * `result`: only saves of its own result (the body's patient, survey, request id and result id);
 * `self`: the route acts on the credential's own hand-over or invitation and nothing else;
 * `link` (Tele-AWV only): as `self`, and the token of a used or expired link is admitted too, so the
 * route can tell its holder which; no other route admits such a token.
 */
export type PatientScope = "survey" | "result" | "self" | "link";

/**
 * The ways a session gains a practice or a role: signing in (each of its steps), a member's practice
 * switch, a system administrator's switch into any practice, and the Staff button of a handed-over
 * tablet; and the hand-over itself, which gives the browser a patient credential in place of the staff
 * session (no practice role: the way back is the Staff button).
 */
export type SessionWay = "sign-in" | "switch" | "visit" | "staff-return" | "hand-over";

export interface Permission {
  /** Anyone, with or without a credential (sign-in, sign-out, public configuration, the web app). */
  anyone?: true;
  /** A staff session holding any one of these roles in its current tenant. */
  staff?: readonly StaffRole[];
  /** A practice setting that also admits plain users. */
  usersIf?: UserGrant;
  /** The tablet patient credential issued at hand-over. */
  tablet?: PatientScope;
  /** The token of a Tele-AWV invitation link. */
  teleAwv?: PatientScope;
  /** The metrics scrape token (`METRICS_TOKEN`, sent as `Authorization: Bearer`). */
  scrapeToken?: true;
  /** The way in this route is, when it gives the session a practice, a role or a patient credential. */
  session?: SessionWay;
}

export type CredentialKind = "staff" | "tablet" | "teleAwv";

/** Any staff role: users, admins and system admins. */
const USERS = ["user", "admin", "sysAdmin"] as const satisfies readonly StaffRole[];
/** Practice admins and system admins. */
const ADMINS = ["admin", "sysAdmin"] as const satisfies readonly StaffRole[];
/** System admins only. */
const SYSADMINS = ["sysAdmin"] as const satisfies readonly StaffRole[];

const ANYONE: Permission = { anyone: true };

/** The table. Keys are `METHOD /path` as registered; HEAD follows its GET. */
export const PERMISSIONS = {
  // The web app's pages and build files carry no data; the pages put in only the caller's own user.
  "GET web-file": ANYONE,

  // Probes of the load balancer: they say only whether the process and its database answer.
  "GET /healthz": ANYONE,
  "GET /readyz": ANYONE,
  // Request rates, queue depths and pool sizes describe the whole installation, every practice's
  // traffic: for the operators' scraper and system admins, never a practice's staff.
  "GET /metrics": { staff: SYSADMINS, scrapeToken: true },
  // The API's description holds no data, and an EHR integrator reads it before holding an account.
  "GET /api/openapi.json": ANYONE,
  "GET api-reference": ANYONE,

  "GET /api/config": ANYONE,
  "POST /api/auth/sessions": { anyone: true, session: "sign-in" },
  "DELETE /api/auth/sessions": ANYONE,
  "GET /api/auth/keepalive": { staff: USERS, tablet: "self" },
  "DELETE /api/auth/passwords/:email": ANYONE,
  "POST /api/auth/passwords": ANYONE,
  // The second step of a sign-in whose password was right: the session holds a pending sign-in (no staff
  // credential yet) and the handler refuses without one. Setting up the factor is part of it for an admin
  // whose practice requires one.
  "POST /api/auth/sessions/totp": { anyone: true, session: "sign-in" },
  "POST /api/auth/sessions/totp/enrolment": ANYONE,
  "POST /api/auth/sessions/totp/enrolment/confirm": { anyone: true, session: "sign-in" },

  "GET /api/users/me": { staff: USERS },
  "PUT /api/users/me": { staff: USERS },
  "PUT /api/users/me/tenant": { staff: USERS, session: "switch" },
  // A second factor is for administrators; whoever has one may see it and turn it off (unless required).
  "GET /api/users/me/totp": { staff: USERS },
  "POST /api/users/me/totp/enrolment": { staff: ADMINS },
  "POST /api/users/me/totp/enrolment/confirm": { staff: ADMINS },
  "DELETE /api/users/me/totp": { staff: USERS },
  "GET /api/users": { staff: ADMINS },
  "POST /api/users": { staff: ADMINS },
  "PUT /api/users/:id": { staff: ADMINS },
  "DELETE /api/users/:idOrEmail": { staff: ADMINS },
  // The e-mailed invitation's token is the proof; the invitee may not be signed in.
  "POST /api/users/invitations/lookup": ANYONE,
  "POST /api/users/invitations/accept": ANYONE,

  "GET /api/tenants/me": { staff: USERS },
  "GET /api/tenants/getMultiUserTenants": { staff: USERS },
  "GET /api/tenants/:tenantId/reports": { staff: USERS },
  "GET /api/tenants": { staff: SYSADMINS },
  "POST /api/tenants": { staff: SYSADMINS },
  "GET /api/tenants/:id": { staff: SYSADMINS },
  "PUT /api/tenants/:id": { staff: SYSADMINS },
  "DELETE /api/tenants/:id": { staff: SYSADMINS },
  // A system administrator may enter any practice (to set it up or help it) without becoming a member;
  // everyone else moves only among their own practices (PUT /api/users/me/tenant).
  "POST /api/tenants/:id/switch": { staff: SYSADMINS, session: "visit" },

  "GET /api/patients": { staff: USERS },
  "POST /api/patients": { staff: USERS },
  "GET /api/patients/:id": { staff: USERS },
  "PUT /api/patients/:id": { staff: USERS },
  // Removing a clinical record is an admin act unless the practice lets its users (kept, restorable).
  "DELETE /api/patients/:id": { staff: ADMINS, usersIf: "deleteRecords" },
  "GET /api/patients/removed": { staff: ADMINS },
  "POST /api/patients/:id/restore": { staff: ADMINS },
  "GET /api/patients/:patientId/surveys": { staff: USERS },
  // The list as a spreadsheet: what the caller may already page through, in one file (audited).
  "GET /api/patients/export": { staff: USERS },
  "POST /api/patients/:patientId/surveys": { staff: USERS },
  "DELETE /api/patients/:patientId/surveys/:surveyId": { staff: USERS },

  "GET /api/surveys": { staff: USERS },
  "GET /api/surveys/:id": { staff: USERS, tablet: "survey", teleAwv: "survey" },
  "POST /api/surveys/:id": { staff: ADMINS },
  "DELETE /api/surveys/:id": { staff: ADMINS },
  "GET /api/surveys/:id/versions": { staff: USERS },
  "GET /api/surveys/:id/versions/:version": { staff: USERS },

  "GET /api/reports": { staff: USERS },
  "GET /api/reports/:id": { staff: USERS },
  "POST /api/reports/:id": { staff: ADMINS },
  "DELETE /api/reports/:id": { staff: ADMINS },
  "GET /api/reports/:id/versions": { staff: USERS },
  "GET /api/reports/:id/versions/:version": { staff: USERS },

  "POST /api/surveyresults": { staff: USERS, tablet: "result" },
  "GET /api/surveyresults": { staff: USERS },
  "GET /api/surveyresults/:id": { staff: USERS },
  // The prevention plan reads the result and its patient's record: staff only, never a patient credential.
  "GET /api/surveyresults/:id/plan": { staff: USERS },
  "GET /api/surveyresults/report": { staff: USERS },
  "GET /api/surveyresults/export": { staff: USERS },
  "DELETE /api/surveyresults/:id": { staff: ADMINS, usersIf: "deleteRecords" },
  "GET /api/surveyresults/removed": { staff: ADMINS },
  "POST /api/surveyresults/:id/restore": { staff: ADMINS },
  "POST /api/surveyresults/:id/sendhl7": { staff: USERS },
  "POST /api/surveyresults/:id/sendCDA": { staff: USERS },
  "POST /api/surveyresults/:id/sftpout": { staff: USERS },
  "POST /api/surveyresults/:id/sendfhir": { staff: USERS },
  "GET /api/surveyresults/:id/deliveries": { staff: USERS },
  // Sending a result to the practice's own EHR interface is routine staff work (docs/decisions/008-permission-table.md); sending one
  // again, and importing results in bulk (stored as submitted, possibly sent on), are admin acts.
  "POST /api/deliveries/:id/resend": { staff: ADMINS, usersIf: "resendDeliveries" },
  "GET /api/deliveries": { staff: USERS },
  "GET /api/deliveries/counts": { staff: USERS },
  "GET /api/deliveries/export": { staff: USERS },
  "GET /api/deliveries/:id/message": { staff: USERS },
  "POST /api/deliveries/:id/skip": { staff: ADMINS, usersIf: "resendDeliveries" },
  "POST /api/surveyresults/batchUpload": { staff: ADMINS },
  "POST /api/surveyresults/batchUpload/stream": { staff: ADMINS },

  "GET /api/locations": { staff: USERS },
  "POST /api/locations": { staff: ADMINS },
  "GET /api/locations/:id": { staff: USERS },
  "PUT /api/locations/:id": { staff: ADMINS },
  "DELETE /api/locations/:id": { staff: ADMINS },

  "GET /api/interfaces": { staff: USERS },
  "POST /api/interfaces": { staff: ADMINS },
  "GET /api/interfaces/:id": { staff: USERS },
  "PUT /api/interfaces/:id": { staff: ADMINS },
  "DELETE /api/interfaces/:id": { staff: ADMINS },
  "POST /api/interfaces/:id/check-connection": { staff: ADMINS },

  // Inbound HL7 from the practice's EHR: where it is received and what came (the log names MRNs).
  "GET /api/inbound-messages": { staff: ADMINS },
  "GET /api/inbound-facilities": { staff: ADMINS },
  "PUT /api/inbound-facilities": { staff: ADMINS },
  "GET /api/inbound-senders": { staff: ADMINS },
  "PUT /api/inbound-senders": { staff: ADMINS },

  "GET /api/alerts": { staff: USERS },
  // Acknowledging a self-harm alert says a clinician has acted on it: admins, or users where allowed.
  "POST /api/alerts/:id/acknowledge": { staff: ADMINS, usersIf: "acknowledgeAlerts" },
  "GET /api/audit": { staff: ADMINS },
  "GET /api/audit/export": { staff: ADMINS },

  "POST /api/auth/sendAWVEmail": { staff: USERS },
  "POST /api/auth/sendAWVEmail2": { staff: USERS },
  "POST /api/auth/teleawv": { teleAwv: "self" },
  "POST /api/auth/sendAWV": { teleAwv: "self" },
  // The patient's page opens with what state its link is in (and the practice's name), and keeps the
  // patient's progress as a draft of that invitation alone.
  "GET /api/auth/teleawv/link": { teleAwv: "link" },
  "PUT /api/auth/teleawv/draft": { teleAwv: "self" },

  // The tablet hand-over: staff hand over, the patient credential reads and ends its own hand-over,
  // and the Staff button (with the password of whoever handed over) takes it back.
  "POST /api/tablet/handovers": { staff: USERS, session: "hand-over" },
  "GET /api/tablet/handover": { tablet: "self" },
  "DELETE /api/tablet/handover": { tablet: "self" },
  "POST /api/tablet/handover/staff": { tablet: "self", session: "staff-return" },
} as const satisfies Record<string, Permission>;

export type PermissionKey = keyof typeof PERMISSIONS;

/** The table's entry for a route, or undefined when it has none. HEAD routes follow their GET. */
export function permissionOf(method: string, url: string): Permission | undefined {
  const key = `${method === "HEAD" ? "GET" : method} ${url}`;
  return (PERMISSIONS as Record<string, Permission>)[key];
}

/** The roles of an entry in words: the named sets by their least role, any other set listed with "only". */
function rolesInWords(roles: readonly StaffRole[]): string {
  const same = (set: readonly StaffRole[]) =>
    set.length === roles.length && set.every((r) => roles.includes(r));
  if (same(USERS)) return "user";
  if (same(ADMINS)) return "admin";
  if (same(SYSADMINS)) return "sysAdmin";
  return `${roles.join(" or ")} only`;
}

const TABLET_SCOPE: Record<PatientScope, string> = {
  survey: "its survey",
  result: "its result",
  self: "its hand-over",
  link: "its hand-over",
};
const TELE_AWV_SCOPE: Record<PatientScope, string> = {
  survey: "its survey",
  result: "its result",
  self: "its invitation",
  link: "its invitation, also once used or expired",
};

/**
 * Who an entry admits, in the words of docs/api.md's "Who" column (a test holds the page to it):
 * `anyone`, the staff roles (`user` being any role), `user if usersMay.<grant>` for a practice
 * setting, `tablet (…)` and `Tele-AWV link (…)` with what the patient credential reaches.
 */
export function whoOf(permission: Permission): string {
  if (permission.anyone === true) return "anyone";
  const parts: string[] = [];
  if (permission.staff !== undefined) parts.push(rolesInWords(permission.staff));
  if (permission.usersIf !== undefined) parts.push(`user if \`usersMay.${permission.usersIf}\``);
  if (permission.tablet !== undefined) parts.push(`tablet (${TABLET_SCOPE[permission.tablet]})`);
  if (permission.teleAwv !== undefined) parts.push(`Tele-AWV link (${TELE_AWV_SCOPE[permission.teleAwv]})`);
  if (permission.scrapeToken === true) parts.push("metrics token");
  return parts.join(", ");
}

/**
 * The route of the table that decides each act the web offers (`Me.may`): the web shows a button when
 * its route would admit the user, so a change to the table moves the button with it.
 */
export const UI_ACTION_ROUTES = {
  removePatients: "DELETE /api/patients/:id",
  removeResults: "DELETE /api/surveyresults/:id",
  resendDeliveries: "POST /api/deliveries/:id/resend",
  acknowledgeAlerts: "POST /api/alerts/:id/acknowledge",
  editSurveys: "POST /api/surveys/:id",
  editReports: "POST /api/reports/:id",
  manageUsers: "GET /api/users",
  manageLocations: "POST /api/locations",
  manageInterfaces: "POST /api/interfaces",
  manageInbound: "GET /api/inbound-messages",
  viewAudit: "GET /api/audit",
  uploadBatch: "POST /api/surveyresults/batchUpload",
  setUpSecondFactor: "POST /api/users/me/totp/enrolment",
  manageTenants: "GET /api/tenants",
  visitTenants: "POST /api/tenants/:id/switch",
} as const satisfies Record<UiAction, keyof typeof PERMISSIONS>;

/**
 * Whether a staff session holding `roles`, in a practice with these settings, is admitted by `permission`:
 * the rule plugins/access.ts applies to a staff credential (one of the entry's roles, or a plain user
 * where the practice grants the entry's `usersIf`).
 */
export function staffAdmitted(
  permission: Permission,
  roles: number,
  settings: Pick<TenantSettings, "usersMay"> | undefined,
): boolean {
  if ((permission.staff ?? []).some((role) => hasRole(roles, role))) return true;
  return (
    permission.usersIf !== undefined &&
    hasRole(roles, "user") &&
    settings?.usersMay?.[permission.usersIf] === true
  );
}

/** What a staff session holding `roles` may do in a practice with these settings, by the table. */
export function mayOf(
  roles: number,
  settings: Pick<TenantSettings, "usersMay"> | undefined,
  table: Readonly<Record<string, Permission>> = PERMISSIONS,
): May {
  const may = {} as May;
  for (const [action, key] of Object.entries(UI_ACTION_ROUTES) as [UiAction, string][]) {
    const permission = table[key];
    may[action] = permission !== undefined && staffAdmitted(permission, roles, settings);
  }
  return may;
}

/**
 * The table key of the route the router matched (its `config.permission`, declared in
 * plugins/access.ts, or its method and path), or undefined when no route matched (a 404).
 */
export function routeKey(request: FastifyRequest): string | undefined {
  const route = request.routeOptions;
  if (route.url === undefined) return undefined;
  const method = request.method === "HEAD" ? "GET" : request.method;
  return route.config.permission ?? `${method} ${route.url}`;
}

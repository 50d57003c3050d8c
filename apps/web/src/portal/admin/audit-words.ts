import type { AuditEvent } from "@core-care/schema";

/** The audited actions in words, in the order the action filter offers them. */
export const AUDIT_ACTIONS: readonly (readonly [action: string, words: string])[] = [
  ["read", "Opened"],
  ["list", "Listed"],
  ["create", "Created"],
  ["update", "Changed"],
  ["delete", "Removed"],
  ["restore", "Restored"],
  ["submit", "Submitted"],
  ["send", "Sent"],
  ["export", "Exported"],
  ["handover", "Handed the tablet over"],
  ["handover-end", "Tablet hand-over ended"],
  ["login", "Signed in"],
  ["login-failed", "Sign-in failed"],
  ["logout", "Signed out"],
  ["switch-tenant", "Switched practice"],
  ["password-reset", "Asked for a password reset"],
  ["invite", "Invited"],
  ["accept", "Accepted an invitation"],
  ["roles", "Changed roles"],
  ["totp-on", "Turned the second factor on"],
  ["totp-off", "Turned the second factor off"],
  ["recovery-codes", "Made new recovery codes"],
  ["denied", "Was refused"],
  ["stall-mail", "E-mailed the admins: queue stalled"],
];

const ACTION_WORDS = new Map(AUDIT_ACTIONS);

/** What kind of record an event touched, in words. */
const ENTITY_WORDS: Record<string, string> = {
  patient: "Patient",
  "patient-surveys": "Patient's surveys",
  "patient-survey": "Survey assigned to a patient",
  "removed-patient": "Removed patients",
  "survey-result": "Survey result",
  "removed-survey-result": "Removed survey results",
  "survey-result-batch": "Batch upload",
  survey: "Survey",
  report: "Report",
  user: "User",
  session: "Session",
  password: "Password",
  totp: "Second factor",
  tenant: "Practice",
  location: "Location",
  interface: "Interface",
  delivery: "Delivery",
  "safety-alert": "Safety alert",
  "awv-invitation": "Tele-AWV invitation",
  "tablet-handover": "Tablet hand-over",
  "audit-log": "Audit log",
  "inbound-message": "Inbound messages",
  "inbound-facilities": "Inbound receiving facilities",
  "inbound-senders": "Inbound senders",
  "patient-list": "Patient list",
  "delivery-list": "Delivery list",
  "survey-result-list": "Survey result list",
  "survey-result-report": "Survey results for a report",
  route: "Request",
};

/** An action in words; an action this screen does not know yet, as it is. */
export function actionWords(action: string): string {
  return ACTION_WORDS.get(action) ?? action;
}

/** Reading a result's delivery log names the result, not a delivery. */
const isDeliveryLog = (event: Pick<AuditEvent, "action" | "entity">) =>
  event.action === "list" && event.entity === "delivery";

/**
 * The kind of record in words; `delivery:failed` reads "Delivery (failed)", a read of a result's
 * delivery log "Delivery log of a survey result".
 */
export function entityWords(event: Pick<AuditEvent, "action" | "entity">): string {
  if (isDeliveryLog(event)) return "Delivery log of a survey result";
  const { entity } = event;
  const [kind = entity, state] = entity.split(":");
  const words = ENTITY_WORDS[kind] ?? kind;
  return state === undefined ? words : `${words} (${state})`;
}

/** Where a record of the event can be opened in the portal, when it can. */
export function recordLink(event: Pick<AuditEvent, "action" | "entity" | "entityId">): string | undefined {
  if (event.entityId === null) return undefined;
  if (isDeliveryLog(event)) return `/results/${event.entityId}`;
  switch (event.entity) {
    case "patient":
    case "patient-surveys":
    case "patient-survey":
      return `/patients/${event.entityId}`;
    case "survey-result":
      return `/results/${event.entityId}`;
    default:
      return undefined;
  }
}

/** An event's details (never PHI: roles from and to, a hand-over's end, the filters of an export) as text. */
export function detailsText(details: AuditEvent["details"]): string {
  if (details === null) return "";
  return Object.entries(details)
    .map(
      ([key, value]) =>
        `${key}: ${Array.isArray(value) ? value.join(", ") : typeof value === "object" && value !== null ? JSON.stringify(value) : String(value)}`,
    )
    .join("; ");
}

/** The filters of the audit log as the URL keeps them. */
export interface AuditFilters {
  user: string;
  patientId: string;
  action: string;
  /** Local calendar days, `YYYY-MM-DD`, both inclusive. */
  from: string;
  to: string;
}

/** The API query of the filters: the days as instants of the browser's time zone, `to` through its end. */
export function auditQuery(filters: AuditFilters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.user.trim() !== "") query.user = filters.user.trim();
  if (filters.patientId !== "") query.patientId = filters.patientId;
  if (filters.action !== "") query.action = filters.action;
  const day = (text: string, plus = 0) => {
    const [y, m, d] = text.split("-").map(Number);
    return new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + plus).toISOString();
  };
  if (/^\d{4}-\d{2}-\d{2}$/.test(filters.from)) query.from = day(filters.from);
  if (/^\d{4}-\d{2}-\d{2}$/.test(filters.to)) query.to = day(filters.to, 1);
  return query;
}

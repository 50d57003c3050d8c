import { z } from "zod";
import { ObjectIdSchema, TimestampSchema } from "./common.js";

/** What an audit event records: who, which tenant, what, when, from where. Never PHI. */
export const AuditEventSchema = z.object({
  id: ObjectIdSchema,
  tenantId: z.string(),
  userId: ObjectIdSchema.nullable(),
  /** Who, in words: the staff member's name and e-mail, when the event has one and the account exists. */
  user: z.object({ name: z.string(), email: z.string() }).nullable().optional(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  ip: z.string().nullable(),
  /** What changed, never PHI: roles from and to, why a hand-over ended, the route refused. */
  details: z.record(z.string(), z.unknown()).nullable(),
  at: TimestampSchema,
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

/** A date (`2026-11-21`, the start of that UTC day) or an instant with its offset. */
const InstantSchema = z.union([
  z.iso.datetime({ offset: true }),
  z.iso.date().transform((day) => `${day}T00:00:00Z`),
]);

/** The filters of the audit log, shared by its list and its CSV export. */
export const AuditFilterSchema = z.object({
  /** Only events of this action (`login-failed`, `denied`, `roles`, ...). */
  action: z
    .string()
    .regex(/^[a-z-]{1,40}$/, "Must be an action such as read, update or login-failed.")
    .optional(),
  /** Only events of staff members whose e-mail or name contains this text, or whose id it is. */
  user: z.string().trim().min(1).max(100).optional(),
  /**
   * Only events about this patient: the patient's own record, assigned surveys, results, deliveries of
   * those results, tablet hand-overs, Tele-AWV invitations and safety alerts.
   */
  patientId: ObjectIdSchema.optional(),
  /** Events at or after this instant. */
  from: InstantSchema.optional(),
  /** Events before this instant. */
  to: InstantSchema.optional(),
  /**
   * `system`: the events that belong to no tenant, such as failed sign-ins of unknown e-mails
   * (sysAdmin only).
   */
  scope: z.enum(["tenant", "system"]).default("tenant"),
});
export type AuditFilter = z.infer<typeof AuditFilterSchema>;

export const AuditListQuerySchema = AuditFilterSchema.extend({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

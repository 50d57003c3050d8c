import { z } from "zod";
import { ObjectIdSchema, TimestampSchema } from "./common.js";

/** What an audit event records: who, which tenant, what, when, from where. Never PHI. */
export const AuditEventSchema = z.object({
  id: ObjectIdSchema,
  tenantId: z.string(),
  userId: ObjectIdSchema.nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  ip: z.string().nullable(),
  at: TimestampSchema,
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

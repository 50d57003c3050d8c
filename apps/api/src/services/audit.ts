import { objectId } from "@core-care/survey-engine";
import type { DbOrTx } from "../db/index.js";
import { auditEvents } from "../db/schema.js";

/** Audited actions: reads and changes of patient data, results and users, sign-ins and deliveries. */
export type AuditAction =
  "read" | "list" | "create" | "update" | "delete" | "login" | "logout" | "send" | "submit";

export interface AuditEntry {
  tenantId: string;
  userId: string | null;
  action: AuditAction;
  entity: string;
  entityId?: string | null;
  ip?: string | null;
}

/** Writes one audit event: who, which tenant, what, when, from where; never PHI. */
export async function audit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    tenantId: entry.tenantId,
    id: objectId(),
    userId: entry.userId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    ip: entry.ip ?? null,
  });
}

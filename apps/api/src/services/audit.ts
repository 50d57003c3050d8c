import { objectId } from "@core-care/survey-engine";
import type { Db, DbOrTx } from "../db/index.js";
import { Batcher } from "./batcher.js";
import { auditEvents } from "../db/schema.js";

/**
 * Audited actions: reads and changes of patient data, results and users; sign-in, its failures and
 * sign-out; tablet hand-overs and their end; role changes and tenant switches; refused requests;
 * sends, exports and downloads of PHI; second-factor changes.
 */
export type AuditAction =
  | "read"
  | "list"
  | "create"
  | "update"
  | "delete"
  | "restore"
  | "login"
  | "login-failed"
  | "logout"
  | "switch-tenant"
  | "handover"
  | "handover-end"
  | "denied"
  | "roles"
  | "invite"
  | "accept"
  | "send"
  | "submit"
  | "export"
  | "totp-on"
  | "totp-off"
  | "recovery-codes"
  | "password-reset";

/** The tenant id of events that belong to no tenant (a failed sign-in of an unknown e-mail). */
export const NO_TENANT = "";

export interface AuditEntry {
  tenantId: string;
  userId: string | null;
  action: AuditAction;
  entity: string;
  entityId?: string | null | undefined;
  ip?: string | null | undefined;
  /** What changed, never PHI: roles from and to, why a hand-over ended, the route refused. */
  details?: Record<string, unknown> | undefined;
}

const rowOf = (entry: AuditEntry) => ({
  tenantId: entry.tenantId,
  id: objectId(),
  userId: entry.userId,
  action: entry.action,
  entity: entry.entity,
  entityId: entry.entityId ?? null,
  ip: entry.ip ?? null,
  details: entry.details ?? null,
});

/** Writes one audit event: who, which tenant, what, when, from where; never PHI. */
export async function audit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values(rowOf(entry));
}

/**
 * Audit events of concurrent requests written together: each `write` resolves once its event is
 * committed, in one multi-row statement with the events that arrived while the previous one ran (group
 * commit). A busy server then sends one audit statement for many list and read requests, not one each.
 */
export class AuditWriter {
  private readonly batcher: Batcher<AuditEntry, void>;

  constructor(db: Db) {
    this.batcher = new Batcher<AuditEntry, void>(
      async (entries) => {
        await db.insert(auditEvents).values(entries.map(rowOf));
        return entries.map(() => undefined);
      },
      { maxBatch: 500, maxInFlight: 1 },
    );
  }

  write(entry: AuditEntry): Promise<void> {
    return this.batcher.add(entry);
  }
}

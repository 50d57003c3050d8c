import { objectId } from "@core-care/survey-engine";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx, Execute } from "../db/index.js";
import { Batcher } from "./batcher.js";
import { auditEvents } from "../db/schema.js";

/**
 * Audited actions: reads and changes of patient data, results and users; sign-in, its failures and
 * sign-out; tablet hand-overs and their end; role changes and tenant switches; refused requests;
 * sends, exports and downloads of PHI; second-factor changes; stall e-mails.
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
  | "password-reset"
  /** A stalled delivery queue was e-mailed to the practice's admins (the marker: once per stall). */
  | "stall-mail";

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
 * committed, in one statement with the events that arrived while the previous one ran (group commit).
 * A busy server then sends one audit statement for many list and read requests, not one each. The
 * statement takes the events as one array a column, so it is the same text for any number of events:
 * prepared once per connection, and not built anew for each run.
 */
export class AuditWriter {
  private readonly batcher: Batcher<AuditEntry, void>;

  constructor(execute: Execute) {
    this.batcher = new Batcher<AuditEntry, void>(
      async (entries) => {
        await execute("audit-events-write", insertOf(entries));
        return entries.map(() => undefined);
      },
      { maxBatch: 500, maxInFlight: 1 },
    );
  }

  write(entry: AuditEntry): Promise<void> {
    return this.batcher.add(entry);
  }
}

/** The events as one INSERT of an array a column, `at` left to its default (the statement's time). */
function insertOf(entries: AuditEntry[]): SQL {
  const rows = entries.map(rowOf);
  // One parameter a column (a bare array in `sql` would be a list of parameters).
  const column = <T>(of: (row: ReturnType<typeof rowOf>) => T) => sql.param(rows.map(of));
  return sql`insert into ${auditEvents} (tenant_id, id, user_id, action, entity, entity_id, ip, details)
    select * from unnest(
      ${column((r) => r.tenantId)}::text[], ${column((r) => r.id)}::text[],
      ${column((r) => r.userId)}::text[], ${column((r) => r.action)}::text[],
      ${column((r) => r.entity)}::text[], ${column((r) => r.entityId)}::text[],
      ${column((r) => r.ip)}::text[],
      ${column((r) => (r.details === null ? null : JSON.stringify(r.details)))}::jsonb[])`;
}

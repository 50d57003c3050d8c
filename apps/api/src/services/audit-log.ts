import { and, count, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { PAGE_SIZE, type AuditEvent, type AuditFilter } from "@core-care/schema";
import type { Db } from "../db/index.js";
import { auditEvents, users } from "../db/schema.js";

/** The audit log's filters as the service takes them (the query's, without its scope). */
export type AuditQuery = Omit<AuditFilter, "scope">;

/** `%`, `_` and `\` of a LIKE pattern taken literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The events about one patient. Audit events name the record they touched, never the patient's data, so
 * this follows each kind of record back to its patient: the patient (its record and assigned surveys), its
 * results (their reads, sends and delivery logs), the deliveries of those results, its tablet hand-overs,
 * Tele-AWV invitations and safety alerts, each within the tenant. Ids are objectIds, unique across kinds,
 * so one `in` over their union finds them all through the (tenant, entity id) index.
 */
function aboutPatient(tenantId: string, patientId: string): SQL {
  return sql`${auditEvents.entityId} in (
    select ${patientId}::text
    union all select id from survey_results where tenant_id = ${tenantId} and patient_id = ${patientId}
    union all select d.id from deliveries d
      join survey_results r on r.tenant_id = d.tenant_id and r.id = d.result_id
      where d.tenant_id = ${tenantId} and r.patient_id = ${patientId}
    union all select id from tablet_handovers where tenant_id = ${tenantId} and patient_id = ${patientId}
    union all select id from awv_invitations where tenant_id = ${tenantId} and patient_id = ${patientId}
    union all select id from safety_alerts where tenant_id = ${tenantId} and patient_id = ${patientId}
  )`;
}

/** The staff members a `user` filter names: by id, or by a part of their e-mail or name. */
function byUser(text: string): SQL {
  const pattern = `%${likeLiteral(text.toLowerCase())}%`;
  return sql`${auditEvents.userId} in (
    select id from users
    where id = ${text}
      or lower(email) like ${pattern}
      or lower(first_name || ' ' || last_name) like ${pattern})`;
}

function whereOf(tenantId: string, query: AuditQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(auditEvents.tenantId, tenantId)];
  if (query.action !== undefined) conditions.push(eq(auditEvents.action, query.action));
  if (query.user !== undefined) conditions.push(byUser(query.user));
  if (query.patientId !== undefined) conditions.push(aboutPatient(tenantId, query.patientId));
  if (query.from !== undefined) conditions.push(gte(auditEvents.at, new Date(query.from)));
  if (query.to !== undefined) conditions.push(lt(auditEvents.at, new Date(query.to)));
  return and(...conditions);
}

const SELECTION = {
  event: auditEvents,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
};

type Row = {
  event: typeof auditEvents.$inferSelect;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
};

function toEvent({ event: r, email, firstName, lastName }: Row): AuditEvent {
  return {
    id: r.id,
    tenantId: r.tenantId,
    userId: r.userId,
    user: email === null ? null : { name: `${firstName ?? ""} ${lastName ?? ""}`.trim(), email },
    action: r.action,
    entity: r.entity,
    entityId: r.entityId,
    ip: r.ip,
    details: r.details,
    at: r.at.toISOString(),
  };
}

/** One page of a tenant's audit events, newest first, filtered; each with who did it in words. */
export async function listAuditEvents(
  db: Db,
  tenantId: string,
  query: AuditQuery & { page: number },
): Promise<{ items: AuditEvent[]; total: number }> {
  const where = whereOf(tenantId, query);
  const rows = await db
    .select(SELECTION)
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.userId))
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE);
  const [total] = await db.select({ n: count() }).from(auditEvents).where(where);
  return { items: rows.map(toEvent), total: total?.n ?? 0 };
}

/** At most this many events go into one CSV export; a longer period is exported in parts. */
export const AUDIT_EXPORT_LIMIT = 100_000;
const EXPORT_BATCH = 2_000;

/**
 * Every event the filters select, newest first, in batches read by keyset (the time and id of the last
 * event read), so an export of a long period neither holds it all in memory nor pages by offset.
 */
export async function* auditEventsForExport(
  db: Db,
  tenantId: string,
  query: AuditQuery,
  limit = AUDIT_EXPORT_LIMIT,
): AsyncGenerator<AuditEvent[]> {
  const where = whereOf(tenantId, query);
  // The cursor is the last event read, compared as a row in SQL: a timestamp through JavaScript would
  // lose its microseconds and skip events.
  let afterId: string | undefined;
  let left = limit;
  while (left > 0) {
    const page: SQL | undefined =
      afterId === undefined
        ? where
        : and(
            where,
            sql`(${auditEvents.at}, ${auditEvents.id}) < (
              select at, id from audit_events where tenant_id = ${tenantId} and id = ${afterId})`,
          );
    const rows = await db
      .select(SELECTION)
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.userId))
      .where(page)
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(Math.min(EXPORT_BATCH, left));
    if (rows.length === 0) return;
    yield rows.map(toEvent);
    left -= rows.length;
    afterId = rows[rows.length - 1]!.event.id;
    if (rows.length < EXPORT_BATCH) return;
  }
}

import { and, asc, count, desc, eq, gte, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { durationStart } from "@core-care/survey-engine";
import type {
  SurveyResult,
  SurveyResultListItem,
  SurveyResultListQuery,
  SurveyResultSummary,
} from "@core-care/schema";
import { PAGE_SIZE } from "@core-care/schema";
import type { Db } from "../db/index.js";
import { patients, surveyResults, surveyVersions } from "../db/schema.js";
import { notFound } from "../errors.js";
import { after, cappedTotal, decodeCursor, pageOf } from "./keyset.js";

const summaryColumns = {
  id: surveyResults.id,
  surveyId: surveyResults.surveyId,
  surveyTitle: sql<string>`coalesce(${surveyVersions.definition}->>'title', '')`,
  surveyVersion: surveyResults.surveyVersion,
  patientId: surveyResults.patientId,
  patientFirstName: patients.firstName,
  patientLastName: patients.lastName,
  patientMrn: patients.mrn,
  patientDob: patients.dob,
  isSubmitted: surveyResults.isSubmitted,
  createdAt: surveyResults.createdAt,
  updatedAt: surveyResults.updatedAt,
};

type SummaryRow = {
  id: string;
  surveyId: string;
  surveyTitle: string;
  surveyVersion: number;
  patientId: string;
  patientFirstName: string | null;
  patientLastName: string | null;
  patientMrn: string | null;
  patientDob: string | null;
  isSubmitted: boolean;
  createdAt: Date;
  updatedAt: Date;
};

function toSummary(row: SummaryRow): SurveyResultSummary {
  return {
    id: row.id,
    surveyId: row.surveyId,
    surveyTitle: row.surveyTitle,
    surveyVersion: row.surveyVersion,
    patientId: row.patientId,
    patientName: [row.patientFirstName, row.patientLastName].filter(Boolean).join(" "),
    isSubmitted: row.isSubmitted,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toListItem(row: SummaryRow): SurveyResultListItem {
  return {
    ...toSummary(row),
    patientFirstName: row.patientFirstName ?? "",
    patientLastName: row.patientLastName ?? "",
    patientMrn: row.patientMrn ?? "",
    patientDob: row.patientDob ?? "",
  };
}

/** Results of a removed patient go from lists and reads with them (SQL on `survey_results`). */
export const patientNotRemoved = sql`not exists (select 1 from patients p where p.tenant_id = ${surveyResults.tenantId}
  and p.id = ${surveyResults.patientId} and p.deleted_at is not null)`;

function summaryQuery(db: Db) {
  return db
    .select(summaryColumns)
    .from(surveyResults)
    .leftJoin(
      patients,
      and(eq(patients.tenantId, surveyResults.tenantId), eq(patients.id, surveyResults.patientId)),
    )
    .leftJoin(
      surveyVersions,
      and(
        eq(surveyVersions.tenantId, surveyResults.surveyTenantId),
        eq(surveyVersions.surveyId, surveyResults.surveyId),
        eq(surveyVersions.version, surveyResults.surveyVersion),
      ),
    );
}

/**
 * The list's keyset: created_at in whole microseconds (a JavaScript Date would round them away, and
 * two results saved in the same millisecond would then be skipped or repeated), then the id.
 */
const createdMicros = sql<string>`(extract(epoch from ${surveyResults.createdAt}) * 1000000)::bigint::text`;
const MICROS = /^-?\d{1,17}$/;
const ID = /^[0-9a-f]{24}$/;

/** What the results list's filters select (SPEC 3): the tenant's live results of live patients from the
 * duration's start, of one patient or survey if given. The list and its CSV export share it. */
export function resultListFilters(
  tenantId: string,
  query: Pick<SurveyResultListQuery, "duration" | "patientId" | "surveyId">,
  now: Date,
): SQL[] {
  const conditions: SQL[] = [
    eq(surveyResults.tenantId, tenantId),
    isNull(surveyResults.deletedAt),
    patientNotRemoved,
    gte(surveyResults.createdAt, durationStart(query.duration, now)),
  ];
  if (query.patientId !== undefined) conditions.push(eq(surveyResults.patientId, query.patientId));
  if (query.surveyId !== undefined) conditions.push(eq(surveyResults.surveyId, query.surveyId));
  return conditions;
}

/**
 * Results of the tenant from the duration filter's start, newest first, 200 a page (SPEC 3, 9): by
 * keyset from a cursor, or by page number (OFFSET, kept for callers of the spec's `page`). The total
 * is counted no further than TOTAL_CAP + 1 rows.
 */
export async function listResults(
  db: Db,
  tenantId: string,
  query: SurveyResultListQuery,
  now = new Date(),
): Promise<{
  items: SurveyResultListItem[];
  total: number;
  totalCapped: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
}> {
  const where = and(...resultListFilters(tenantId, query, now));
  const cursor =
    query.cursor === undefined
      ? undefined
      : decodeCursor(query.cursor, 2, ([micros, id]) => MICROS.test(micros!) && ID.test(id!));
  const backwards = cursor?.dir === "prev";
  const order = backwards ? asc : desc;
  let page = db
    .select({ ...summaryColumns, micros: createdMicros })
    .from(surveyResults)
    .leftJoin(
      patients,
      and(eq(patients.tenantId, surveyResults.tenantId), eq(patients.id, surveyResults.patientId)),
    )
    .leftJoin(
      surveyVersions,
      and(
        eq(surveyVersions.tenantId, surveyResults.surveyTenantId),
        eq(surveyVersions.surveyId, surveyResults.surveyId),
        eq(surveyVersions.version, surveyResults.surveyVersion),
      ),
    )
    .where(
      cursor === undefined
        ? where
        : and(
            where,
            after(
              [sql`${surveyResults.createdAt}`, sql`${surveyResults.id}`],
              [
                sql`'epoch'::timestamptz + ${cursor.key[0]}::bigint * interval '1 microsecond'`,
                sql`${cursor.key[1]}`,
              ],
              backwards,
            ),
          ),
    )
    .orderBy(order(surveyResults.createdAt), order(surveyResults.id))
    .limit(PAGE_SIZE + 1)
    .$dynamic();
  if (cursor === undefined && query.page > 1) page = page.offset((query.page - 1) * PAGE_SIZE);
  const rows = await page;
  const { total, totalCapped } = await cappedTotal(db, surveyResults, where);
  const { items, nextCursor, prevCursor } = pageOf(
    rows,
    PAGE_SIZE,
    cursor,
    (row) => [row.micros, row.id],
    cursor === undefined && query.page === 1,
  );
  return { items: items.map(toListItem), total, totalCapped, nextCursor, prevCursor };
}

export async function getResult(db: Db, tenantId: string, id: string): Promise<SurveyResult> {
  const [row] = await summaryQuery(db)
    .where(
      and(
        eq(surveyResults.tenantId, tenantId),
        eq(surveyResults.id, id),
        isNull(surveyResults.deletedAt),
        patientNotRemoved,
      ),
    )
    .limit(1);
  if (row === undefined) throw notFound("Survey result");
  const [answers] = await db
    .select({ answers: surveyResults.answers })
    .from(surveyResults)
    .where(and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.id, id)));
  return { ...toSummary(row), answers: answers?.answers ?? {} };
}

export async function deleteResult(db: Db, tenantId: string, id: string): Promise<void> {
  const deleted = await db
    .update(surveyResults)
    .set({ deletedAt: new Date() })
    .where(
      and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.id, id), isNull(surveyResults.deletedAt)),
    )
    .returning({ id: surveyResults.id });
  if (deleted.length === 0) throw notFound("Survey result");
}

/** Brings a removed result back (its patient must not be removed). */
export async function restoreResult(db: Db, tenantId: string, id: string): Promise<SurveyResult> {
  const restored = await db
    .update(surveyResults)
    .set({ deletedAt: null })
    .where(
      and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.id, id), isNotNull(surveyResults.deletedAt)),
    )
    .returning({ id: surveyResults.id });
  if (restored.length === 0) throw notFound("Removed survey result");
  return getResult(db, tenantId, id);
}

/** The tenant's removed results, most recently changed first (one page). */
export async function listRemovedResults(
  db: Db,
  tenantId: string,
): Promise<{ items: SurveyResultSummary[]; total: number }> {
  const where = and(eq(surveyResults.tenantId, tenantId), isNotNull(surveyResults.deletedAt));
  const rows = await summaryQuery(db)
    .where(where)
    .orderBy(desc(surveyResults.deletedAt), desc(surveyResults.id))
    .limit(PAGE_SIZE);
  const [total] = await db.select({ n: count() }).from(surveyResults).where(where);
  return { items: rows.map(toSummary), total: total?.n ?? 0 };
}

import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  isNotNull,
  isNull,
  sql,
  type Placeholder,
  type SQL,
} from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { durationStart } from "@core-care/survey-engine";
import type { PagedList, SurveyResult, SurveyResultListQuery, SurveyResultSummary } from "@core-care/schema";
import { PAGE_SIZE, TOTAL_CAP } from "@core-care/schema";
import { executeOn, rowsOf, type Db, type Execute } from "../db/index.js";
import { StatementShapes } from "../db/shapes.js";
import { surveyResults, surveyVersions } from "../db/schema.js";
import { resultSurveyVersion } from "../db/joins.js";
import { isoOfUtcText, microsOfUtcText, utcText } from "../db/utc-text.js";
import { notFound } from "../errors.js";
import { cancelUnsentDeliveries } from "./delivery-cancel.js";
import {
  after,
  assertPageWithin,
  cappedCount,
  cappedOf,
  decodeCursor,
  pageOf,
  pageOffset,
  totalOfPage,
} from "./keyset.js";
import type { CappedLists } from "./capped-lists.js";

/**
 * A timestamp as the API writes it (`Date.prototype.toISOString`, UTC, milliseconds), made by
 * PostgreSQL: a list of 200 rows then parses and formats no dates in the API process.
 */
export const isoText = (column: AnyPgColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const summaryColumns = {
  id: surveyResults.id,
  surveyId: surveyResults.surveyId,
  surveyTitle: sql<string>`coalesce(${surveyVersions.title}, '')`,
  surveyVersion: surveyResults.surveyVersion,
  patientId: surveyResults.patientId,
  patientFirstName: surveyResults.patientFirstName,
  patientLastName: surveyResults.patientLastName,
  patientMrn: surveyResults.patientMrn,
  patientDob: surveyResults.patientDob,
  isSubmitted: surveyResults.isSubmitted,
  createdAt: isoText(surveyResults.createdAt),
  updatedAt: isoText(surveyResults.updatedAt),
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
  createdAt: string;
  updatedAt: string;
};

const fullName = (first: string | null, last: string | null) =>
  first && last ? `${first} ${last}` : first || last || "";

function toSummary(row: SummaryRow): SurveyResultSummary {
  return {
    id: row.id,
    surveyId: row.surveyId,
    surveyTitle: row.surveyTitle,
    surveyVersion: row.surveyVersion,
    patientId: row.patientId,
    patientName: fullName(row.patientFirstName, row.patientLastName),
    isSubmitted: row.isSubmitted,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * A row of the list's statement, read as an array (`rowMode` "array"): its columns in the order the
 * statement selects them (resultPage), and the capped total last when the page counts. The columns
 * that cannot hold a "|" (the version, whether submitted, created_at and updated_at as `utcText` writes
 * them, the birth date) come as one, `fixed`: each column costs node-postgres a string of its own, and
 * reading a page's 2,400 fields was a quarter of the API's CPU for it.
 */
type ListRow = [
  id: string,
  surveyId: string,
  surveyTitle: string,
  patientId: string,
  firstName: string | null,
  lastName: string | null,
  mrn: string | null,
  fixed: string,
  cappedTotal?: number,
];

const FIXED = 7;
const CAPPED_TOTAL = 8;

/** The parts of a row's `fixed` column, in the order resultPage joins them. */
const VERSION = 0;
const SUBMITTED = 1;
const CREATED_UTC = 2;
const UPDATED_UTC = 3;
const DOB = 4;

/** Characters JSON must escape in a string (and the surrogates JSON.stringify escapes when alone). */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON.stringify writes it, without its general path for most strings of a page. */
const jsonString = (text: string): string => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`);

/**
 * A list item as JSON text, its keys in SurveyResultListItemSchema's order: what JSON.stringify would
 * write for the item toSummary's rules make of the row, written straight from the row. Building 200
 * objects for the schema's stripper and JSON.stringify to walk again was a fifth of the API's CPU for
 * a page; outside production every page is still held to the schema (serializer.ts, sendJsonText).
 */
function listItemJson(row: ListRow, fixed: string[]): string {
  const first = row[4] ?? "";
  const last = row[5] ?? "";
  return (
    `{"id":${jsonString(row[0])},"surveyId":${jsonString(row[1])},"surveyTitle":${jsonString(row[2])}` +
    `,"surveyVersion":${Number(fixed[VERSION])},"patientId":${jsonString(row[3])}` +
    `,"patientName":${jsonString(fullName(first, last))},"isSubmitted":${fixed[SUBMITTED] === "true"}` +
    `,"createdAt":"${isoOfUtcText(fixed[CREATED_UTC]!)}","updatedAt":"${isoOfUtcText(fixed[UPDATED_UTC]!)}"` +
    `,"patientFirstName":${jsonString(first)},"patientLastName":${jsonString(last)}` +
    `,"patientMrn":${jsonString(row[6] ?? "")},"patientDob":${jsonString(fixed[DOB]!)}}`
  );
}

/**
 * Results of a removed patient go from lists and reads with them (SQL on `survey_results`). Written as
 * the live results' index's predicate is, so that a statement filtering with it can read that index.
 */
export const patientNotRemoved = sql`not ${surveyResults.patientRemoved}`;

function summaryQuery(db: Db) {
  return db.select(summaryColumns).from(surveyResults).leftJoin(surveyVersions, resultSurveyVersion);
}

/**
 * The list's keyset: created_at in whole microseconds (a JavaScript Date would round them away, and
 * two results saved in the same millisecond would then be skipped or repeated), then the id. A page's
 * cursors take them from created_at's UTC text (db/utc-text.ts).
 */
const MICROS = /^-?\d{1,17}$/;
const ID = /^[0-9a-f]{24}$/;

/**
 * What the results list's filters select (SPEC 3): the tenant's live results of live patients from the
 * duration's start, of one patient or survey if given. The list, its count and its CSV export share it.
 */
export function resultListFilters(
  tenantId: string,
  query: Pick<SurveyResultListQuery, "duration" | "patientId" | "surveyId">,
  now: Date,
): SQL[] {
  return listConditions({
    tenantId,
    start: durationStart(query.duration, now),
    patientId: query.patientId,
    surveyId: query.surveyId,
  });
}

/** What a results list's filters compare with: a request's values, or placeholders for them. */
interface ListFilterValues {
  tenantId: string | Placeholder;
  start: Date | Placeholder;
  patientId: string | Placeholder | undefined;
  surveyId: string | Placeholder | undefined;
}

function listConditions(values: ListFilterValues): SQL[] {
  const conditions: SQL[] = [
    eq(surveyResults.tenantId, values.tenantId),
    isNull(surveyResults.deletedAt),
    patientNotRemoved,
    gte(surveyResults.createdAt, values.start),
  ];
  if (values.patientId !== undefined) conditions.push(eq(surveyResults.patientId, values.patientId));
  if (values.surveyId !== undefined) conditions.push(eq(surveyResults.surveyId, values.surveyId));
  return conditions;
}

/** The list page's statement in each of its shapes, built once (db/shapes.ts). */
const RESULT_PAGES = new StatementShapes();

/** A results page's statement with placeholders for a request's values (see RESULT_PAGES). */
function resultPage(
  db: Db,
  shape: {
    counted: boolean;
    cursor: "next" | "prev" | undefined;
    offset: boolean;
    patient: boolean;
    survey: boolean;
  },
): SQL {
  const values: ListFilterValues = {
    tenantId: sql.placeholder("tenantId"),
    start: sql.placeholder("start"),
    patientId: shape.patient ? sql.placeholder("patientId") : undefined,
    surveyId: shape.survey ? sql.placeholder("surveyId") : undefined,
  };
  const pageWhere = and(...listConditions(values));
  const backwards = shape.cursor === "prev";
  const order = backwards ? asc : desc;
  // The columns in ListRow's order: a page is read as arrays.
  let page = db
    .select({
      id: surveyResults.id,
      surveyId: surveyResults.surveyId,
      surveyTitle: sql<string>`coalesce(${surveyVersions.title}, '')`.as("survey_title"),
      patientId: surveyResults.patientId,
      patientFirstName: surveyResults.patientFirstName,
      patientLastName: surveyResults.patientLastName,
      patientMrn: surveyResults.patientMrn,
      fixed: sql<string>`${surveyResults.surveyVersion}::text || '|' || ${surveyResults.isSubmitted}::text
        || '|' || ${utcText(surveyResults.createdAt)} || '|' || ${utcText(surveyResults.updatedAt)}
        || '|' || coalesce(${surveyResults.patientDob}::text, '')`.as("fixed"),
      ...(shape.counted ? { cappedTotal: cappedCount(surveyResults, and(...listConditions(values))) } : {}),
    })
    .from(surveyResults)
    .leftJoin(surveyVersions, resultSurveyVersion)
    .where(
      shape.cursor === undefined
        ? pageWhere
        : and(
            pageWhere,
            after(
              [sql`${surveyResults.createdAt}`, sql`${surveyResults.id}`],
              [
                sql`'epoch'::timestamptz + ${sql.placeholder("micros")}::bigint * interval '1 microsecond'`,
                sql`${sql.placeholder("id")}`,
              ],
              backwards,
            ),
          ),
    )
    .orderBy(order(surveyResults.createdAt), order(surveyResults.id))
    .limit(PAGE_SIZE + 1)
    .$dynamic();
  if (shape.offset) page = page.offset(sql.placeholder("offset"));
  return page.getSQL();
}

/**
 * Results of the tenant from the duration filter's start, newest first, 200 a page (SPEC 3, 9): by
 * keyset from a cursor, or by page number (OFFSET, kept for callers of the spec's `page`, up to the pages
 * the capped count shows: keyset.ts's pageOffset, and 400 naming `page` past the list's end). The total
 * is counted no further than TOTAL_CAP + 1 rows, and not at all for a list `capped` knows to be longer.
 * Answers the page (`PagedList<SurveyResultListItem>`) as the JSON text the API sends, written from the
 * statement's rows (listItemJson).
 */
export async function listResultsJson(
  db: Db,
  tenantId: string,
  query: SurveyResultListQuery,
  now = new Date(),
  execute: Execute = executeOn(db),
  capped?: CappedLists,
): Promise<string> {
  const start = durationStart(query.duration, now).toISOString();
  // A list already counted past the cap is not counted again (services/capped-lists.ts).
  const list = `results ${start} ${query.patientId ?? ""} ${query.surveyId ?? ""}`;
  const stamp = capped?.stamp();
  const knownCapped = capped?.has(tenantId, list) ?? false;
  const cursor =
    query.cursor === undefined
      ? undefined
      : decodeCursor(query.cursor, 2, ([micros, id]) => MICROS.test(micros!) && ID.test(id!));
  // A page number beyond what the capped count shows is refused before any read (keyset.ts).
  const offset = cursor === undefined ? pageOffset(query.page, PAGE_SIZE) : 0;
  const shape = {
    counted: !knownCapped,
    cursor: cursor?.dir,
    offset: offset > 0,
    patient: query.patientId !== undefined,
    survey: query.surveyId !== undefined,
  };
  const statement = RESULT_PAGES.of(JSON.stringify(shape), () => resultPage(db, shape), {
    tenantId,
    start,
    patientId: query.patientId,
    surveyId: query.surveyId,
    micros: cursor?.key[0],
    id: cursor?.key[1],
    offset,
  });
  // A prepared statement per shape of the query (filters, cursor, direction): planned once per connection.
  const rows = rowsOf<ListRow>(await execute("results-list#", statement, "array"));
  const { total, totalCapped } = knownCapped
    ? cappedOf(TOTAL_CAP + 1)
    : await totalOfPage(
        db,
        rows.slice(0, 1).map((row) => ({ capped_total: row[CAPPED_TOTAL] ?? 0 })),
        surveyResults,
        () => and(...resultListFilters(tenantId, query, now)),
      );
  if (totalCapped && !knownCapped) capped?.put(tenantId, list, stamp!);
  if (cursor === undefined) assertPageWithin(query.page, PAGE_SIZE, rows.length, { total, totalCapped });
  const { items, nextCursor, prevCursor } = pageOf(
    rows.map((row) => ({ row, fixed: row[FIXED].split("|") })),
    PAGE_SIZE,
    cursor,
    ({ row, fixed }) => [microsOfUtcText(fixed[CREATED_UTC]!), row[0]],
    cursor === undefined && query.page === 1,
  );
  const page: Omit<PagedList<never>, "items"> = { total, totalCapped, nextCursor, prevCursor };
  // The keys in pagedListOf's order, items first.
  const rest = JSON.stringify(page).slice(1);
  return `{"items":[${items.map(({ row, fixed }) => listItemJson(row, fixed)).join(",")}],${rest}`;
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

/**
 * Removes a result from every list and read, and cancels its deliveries not yet sent in the same
 * transaction (a result filed under the wrong patient must not reach the EHR afterwards).
 */
export async function deleteResult(
  db: Db,
  tenantId: string,
  id: string,
  actor: { userId: string | null; ip?: string | null } = { userId: null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const deleted = await tx
      .update(surveyResults)
      .set({ deletedAt: new Date() })
      .where(
        and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.id, id), isNull(surveyResults.deletedAt)),
      )
      .returning({ id: surveyResults.id });
    if (deleted.length === 0) throw notFound("Survey result");
    await cancelUnsentDeliveries(tx, tenantId, { resultId: id }, actor);
  });
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

import { and, asc, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { PatientListQuery, SurveyResultListQuery } from "@core-care/schema";
import type { Db } from "../db/index.js";
import { patients, surveyResults, surveyVersions } from "../db/schema.js";
import { resultSurveyVersion } from "../db/joins.js";
import { resultListFilters } from "./survey-results.js";
import { patientSearch } from "./patient-search.js";
import { patientColumns } from "./patients.js";

/** Rows read per statement while an export streams. */
export const EXPORT_PAGE_SIZE = 1_000;

/** Most rows one export carries, as the audit log's export: a spreadsheet's practical size. */
export const EXPORT_MAX_ROWS = 100_000;

/** A result as its list's CSV export shows it. */
export interface ResultExportRow {
  id: string;
  surveyTitle: string;
  surveyVersion: number;
  isSubmitted: boolean;
  createdAt: Date;
  updatedAt: Date;
  patientId: string;
  firstName: string | null;
  lastName: string | null;
  mrn: string | null;
  dob: string | null;
}

/** A patient as the list's CSV export shows it. */
export interface PatientExportRow {
  id: string;
  mrn: string;
  firstName: string;
  lastName: string;
  dob: string;
  sex: string;
  email: string | null;
  phone: string | null;
}

/**
 * The tenant's results the list's filters select (duration, patient, survey), newest first as the list
 * shows them, read a page at a time by keyset (created_at, id) and never more than {@link EXPORT_MAX_ROWS}.
 */
export async function* resultsForExport(
  db: Db,
  tenantId: string,
  query: Omit<SurveyResultListQuery, "page">,
  options: { pageSize?: number; now?: Date } = {},
): AsyncGenerator<ResultExportRow[]> {
  const pageSize = options.pageSize ?? EXPORT_PAGE_SIZE;
  const filters = resultListFilters(tenantId, query, options.now ?? new Date());
  // created_at stays PostgreSQL's own text in the cursor: a Date would drop its microseconds.
  let cursor: { at: string; id: string } | null = null;
  let sent = 0;
  while (sent < EXPORT_MAX_ROWS) {
    const rows = await db
      .select({
        id: surveyResults.id,
        surveyTitle: sql<string>`coalesce(${surveyVersions.title}, '')`,
        surveyVersion: surveyResults.surveyVersion,
        isSubmitted: surveyResults.isSubmitted,
        createdAt: surveyResults.createdAt,
        updatedAt: surveyResults.updatedAt,
        patientId: surveyResults.patientId,
        firstName: surveyResults.patientFirstName,
        lastName: surveyResults.patientLastName,
        mrn: surveyResults.patientMrn,
        dob: surveyResults.patientDob,
        at: sql<string>`${surveyResults.createdAt}::text`,
      })
      .from(surveyResults)
      .leftJoin(surveyVersions, resultSurveyVersion)
      .where(
        and(
          ...filters,
          cursor === null
            ? undefined
            : sql`(${surveyResults.createdAt}, ${surveyResults.id}) < (${cursor.at}::timestamptz, ${cursor.id})`,
        ),
      )
      .orderBy(desc(surveyResults.createdAt), desc(surveyResults.id))
      .limit(Math.min(pageSize, EXPORT_MAX_ROWS - sent));
    if (rows.length > 0) yield rows;
    sent += rows.length;
    const last = rows.at(-1);
    if (last === undefined || rows.length < pageSize) return;
    cursor = { at: last.at, id: last.id };
  }
}

/**
 * The tenant's patients the list's search selects, in the list's sort column and direction (ties by
 * id), read a page at a time by keyset and never more than {@link EXPORT_MAX_ROWS}.
 */
export async function* patientsForExport(
  db: Db,
  tenantId: string,
  query: Pick<PatientListQuery, "q" | "sort" | "order">,
  options: { pageSize?: number } = {},
): AsyncGenerator<PatientExportRow[]> {
  const pageSize = options.pageSize ?? EXPORT_PAGE_SIZE;
  const filters: (SQL | undefined)[] = [eq(patients.tenantId, tenantId), isNull(patients.deletedAt)];
  // The list's own search (name in any order, "Last, First", MRN, birth date, e-mail, phone).
  const search = patientSearch(query.q);
  if (search !== undefined) filters.push(search);
  const column = {
    lastName: patients.lastName,
    firstName: patients.firstName,
    mrn: patients.mrn,
    dob: patients.dob,
  }[query.sort];
  const direction = query.order === "asc" ? asc : desc;
  const { id, mrn, firstName, lastName, dob, sex, email, phone } = patientColumns;
  let cursor: { key: string; id: string } | null = null;
  let sent = 0;
  while (sent < EXPORT_MAX_ROWS) {
    const after: SQL | undefined =
      cursor === null
        ? undefined
        : query.order === "asc"
          ? sql`(${column}, ${patients.id}) > (${cursor.key}, ${cursor.id})`
          : sql`(${column}, ${patients.id}) < (${cursor.key}, ${cursor.id})`;
    const rows = await db
      .select({ id, mrn, firstName, lastName, dob, sex, email, phone, key: sql<string>`${column}::text` })
      .from(patients)
      .where(and(...filters, after))
      .orderBy(direction(column), direction(patients.id))
      .limit(Math.min(pageSize, EXPORT_MAX_ROWS - sent));
    if (rows.length > 0) yield rows;
    sent += rows.length;
    const last = rows.at(-1);
    if (last === undefined || rows.length < pageSize) return;
    cursor = { key: last.key, id: last.id };
  }
}

import { and, desc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import {
  durationStart,
  PROTECTED_FIELD_NAMES,
  protectedFields,
  withoutFields,
} from "@core-care/survey-engine";
import {
  DURATION_LABELS,
  type ReportDataLine,
  type ReportDataQuery,
  type SurveyResult,
} from "@core-care/schema";
import type { Db } from "../db/index.js";
import { surveyResults, surveyVersions } from "../db/schema.js";
import { patientNotRemoved } from "./survey-results.js";

/** Results read per statement: one page is all the stream holds in memory at a time. */
export const REPORT_PAGE_SIZE = 500;

/** Keys of a result that name the patient, removed with the protected fields unless the report is clinical. */
const PATIENT_KEYS = ["patientName"];

/** The start (UTC) of the day after `day` (YYYY-MM-DD): the end of a date range that includes `day`. */
function dayAfter(day: string): Date {
  const start = new Date(`${day}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() + 1);
  return start;
}

interface Version {
  title: string;
  protectedFields: string[];
}

/**
 * The tenant's results of a period for a report (SPEC 3 duration filters, narrowed by an optional range
 * of days), newest first, with their
 * answers, read a page at a time by keyset (created_at, id) so any position costs the same; each page
 * is answered as it is read. Without `clinical`, every protected field (the spec's names and the pii
 * questions of the survey version each result was taken on) and the patient's name are removed here,
 * so they never leave the server. The last page ends with the `end` line and the count.
 */
export async function* reportPages(
  db: Db,
  tenantId: string,
  query: ReportDataQuery,
  options: { pageSize?: number; now?: Date } = {},
): AsyncGenerator<ReportDataLine[]> {
  const pageSize = options.pageSize ?? REPORT_PAGE_SIZE;
  const since = durationStart(query.duration, options.now ?? new Date());
  const versions = new Map<string, Version>();
  const versionOf = async (surveyTenantId: string, surveyId: string, version: number) => {
    const key = `${surveyTenantId} ${surveyId} ${version}`;
    let found = versions.get(key);
    if (found === undefined) {
      const [row] = await db
        .select({ definition: surveyVersions.definition })
        .from(surveyVersions)
        .where(
          and(
            eq(surveyVersions.tenantId, surveyTenantId),
            eq(surveyVersions.surveyId, surveyId),
            eq(surveyVersions.version, version),
          ),
        );
      found = {
        title: row?.definition.title ?? "",
        protectedFields: row === undefined ? [...PROTECTED_FIELD_NAMES] : protectedFields(row.definition),
      };
      versions.set(key, found);
    }
    return found;
  };

  // The cursor keeps created_at as PostgreSQL's own text: a JavaScript Date would round its microseconds
  // away, and the next page would skip or repeat results made within the same millisecond.
  let cursor: { at: string; id: string } | null = null;
  let count = 0;
  for (;;) {
    const rows = await db
      .select({
        id: surveyResults.id,
        surveyId: surveyResults.surveyId,
        surveyTenantId: surveyResults.surveyTenantId,
        surveyVersion: surveyResults.surveyVersion,
        patientId: surveyResults.patientId,
        firstName: surveyResults.patientFirstName,
        lastName: surveyResults.patientLastName,
        isSubmitted: surveyResults.isSubmitted,
        createdAt: surveyResults.createdAt,
        updatedAt: surveyResults.updatedAt,
        answers: surveyResults.answers,
        at: sql<string>`${surveyResults.createdAt}::text`,
      })
      .from(surveyResults)
      .where(
        and(
          eq(surveyResults.tenantId, tenantId),
          isNull(surveyResults.deletedAt),
          patientNotRemoved,
          gte(surveyResults.createdAt, since),
          query.from === undefined
            ? undefined
            : gte(surveyResults.createdAt, new Date(`${query.from}T00:00:00Z`)),
          query.to === undefined ? undefined : lt(surveyResults.createdAt, dayAfter(query.to)),
          cursor === null
            ? undefined
            : sql`(${surveyResults.createdAt}, ${surveyResults.id}) < (${cursor.at}::timestamptz, ${cursor.id})`,
        ),
      )
      .orderBy(desc(surveyResults.createdAt), desc(surveyResults.id))
      .limit(pageSize);
    const lines: ReportDataLine[] = [];
    for (const row of rows) {
      const version = await versionOf(row.surveyTenantId, row.surveyId, row.surveyVersion);
      const result: SurveyResult = {
        id: row.id,
        surveyId: row.surveyId,
        surveyTitle: version.title,
        surveyVersion: row.surveyVersion,
        patientId: row.patientId,
        patientName: [row.firstName, row.lastName].filter(Boolean).join(" "),
        isSubmitted: row.isSubmitted,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        answers: row.answers,
      };
      lines.push({
        type: "result",
        result: query.clinical
          ? result
          : (withoutFields(result, [...version.protectedFields, ...PATIENT_KEYS]) as SurveyResult),
      });
    }
    count += rows.length;
    const last = rows.at(-1);
    if (rows.length < pageSize || last === undefined) {
      lines.push({ type: "end", count, duration: DURATION_LABELS[query.duration] });
      yield lines;
      return;
    }
    yield lines;
    cursor = { at: last.at, id: last.id };
  }
}

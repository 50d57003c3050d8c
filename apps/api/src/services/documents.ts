import { and, asc, desc, eq, max, ne, sql, type SQL } from "drizzle-orm";
import { sortSurveys } from "@core-care/survey-engine";
import type {
  DocumentVersion,
  Report,
  ReportResponse,
  ReportSummary,
  Survey,
  SurveyResponse,
  SurveySummary,
  VersionedSaveResponse,
} from "@core-care/schema";
import { rowsOf, type Db, type DbOrTx } from "../db/index.js";
import { reports, reportVersions, surveys, surveyVersions, users, type ReportBody } from "../db/schema.js";
import { conflict, notFound } from "../errors.js";

/** Message of a version conflict; the designer appends its overwrite question (SPEC 8). */
const conflictMessage = (kind: string, version: number) =>
  `This ${kind} has been changed by someone else since you opened it (server version ${version}).`;

/**
 * The survey a tenant reads under an id, as SQL answering at most one row (tenant_id, version, title):
 * its own, or else the first other tenant's that can be subscribed to. The one statement of this rule;
 * `tenantId` and `surveyId` may be values or column references of an enclosing query.
 */
export const readableSurveySql = (tenantId: SQL | string, surveyId: SQL | string): SQL => sql`
  (select tenant_id, version, title from surveys
   where tenant_id = ${tenantId}::text and id = ${surveyId}::text)
  union all
  (select tenant_id, version, title from surveys
   where id = ${surveyId}::text and can_subscribe_to and tenant_id <> ${tenantId}::text
   order by tenant_id limit 1)
  limit 1`;

/** Which survey, and at which version, a tenant reads for an id. Reads no definition. */
export async function findReadableSurveyRef(
  db: DbOrTx,
  tenantId: string,
  id: string,
): Promise<{ tenantId: string; version: number; title: string; readOnly: boolean } | undefined> {
  const [row] = rowsOf<{ tenant_id: string; version: number; title: string }>(
    await db.execute(readableSurveySql(tenantId, id)),
  );
  return row === undefined
    ? undefined
    : {
        tenantId: row.tenant_id,
        version: row.version,
        title: row.title,
        readOnly: row.tenant_id !== tenantId,
      };
}

/** The survey row a tenant reads for an id (see `readableSurveySql`). */
export async function findReadableSurvey(db: Db, tenantId: string, id: string) {
  const [row] = await db
    .select()
    .from(surveys)
    .where(
      and(
        eq(surveys.id, id),
        eq(surveys.tenantId, sql`(select tenant_id from (${readableSurveySql(tenantId, id)}) readable)`),
      ),
    );
  return row === undefined ? undefined : { row, readOnly: row.tenantId !== tenantId };
}

/** The tenant's surveys plus other tenants' subscribable ones, in the spec's dropdown order. */
export async function listSurveys(
  db: Db,
  tenantId: string,
): Promise<{ items: SurveySummary[]; total: number }> {
  const columns = {
    id: surveys.id,
    title: surveys.title,
    version: surveys.version,
    canSubscribeTo: surveys.canSubscribeTo,
    tenantId: surveys.tenantId,
  };
  const own = await db
    .select(columns)
    .from(surveys)
    .where(eq(surveys.tenantId, tenantId))
    .orderBy(asc(surveys.title));
  const shared = await db
    .select(columns)
    .from(surveys)
    .where(and(eq(surveys.canSubscribeTo, true), ne(surveys.tenantId, tenantId)))
    .orderBy(asc(surveys.title), asc(surveys.tenantId));
  const ownIds = new Set(own.map((s) => s.id));
  const seen = new Set<string>();
  const items: SurveySummary[] = [
    ...own.map((s) => ({ ...s, readOnly: false })),
    ...shared
      .filter((s) => !ownIds.has(s.id) && !seen.has(s.id) && seen.add(s.id))
      .map((s) => ({ ...s, readOnly: true })),
  ];
  const sorted = sortSurveys(items);
  return { items: sorted, total: sorted.length };
}

/** GET /api/surveys/{id}: undefined when `newerThan` is given and the stored version is not newer. */
export async function getSurvey(
  db: Db,
  tenantId: string,
  id: string,
  newerThan?: number,
): Promise<SurveyResponse | undefined> {
  const found = await findReadableSurvey(db, tenantId, id);
  if (found === undefined) throw notFound("Survey");
  if (newerThan !== undefined && found.row.version <= newerThan) return undefined;
  return { ...found.row.definition, id, version: found.row.version, readOnly: found.readOnly };
}

/** The highest kept version of a document id in a tenant (0 when none is kept). */
async function lastKeptVersion(
  tx: DbOrTx,
  table: typeof surveyVersions | typeof reportVersions,
  idColumn: typeof surveyVersions.surveyId | typeof reportVersions.reportId,
  tenantId: string,
  id: string,
): Promise<number> {
  const [row] = await tx
    .select({ last: max(table.version) })
    .from(table)
    .where(and(eq(table.tenantId, tenantId), eq(idColumn, id)));
  return row?.last ?? 0;
}

/**
 * Saves a survey when its version is the server's (0 for a new one), storing version + 1 and a kept
 * copy; otherwise 409 with the server's version as the error code (SPEC 8).
 */
export async function saveSurvey(
  db: Db,
  tenantId: string,
  survey: Survey,
  userId: string,
): Promise<VersionedSaveResponse> {
  return db.transaction(async (tx) => {
    // A new survey under the id of a deleted one continues its kept versions, which results saved
    // against them still read; it never collides with them.
    const version =
      survey.version === 0
        ? (await lastKeptVersion(tx, surveyVersions, surveyVersions.surveyId, tenantId, survey.id)) + 1
        : survey.version + 1;
    const definition: Survey = { ...survey, version };
    const values = {
      title: survey.title,
      version,
      canSubscribeTo: survey.canSubscribeTo,
      definition,
      updatedAt: new Date(),
    };
    const saved =
      survey.version === 0
        ? await tx
            .insert(surveys)
            .values({ tenantId, id: survey.id, ...values })
            .onConflictDoNothing()
            .returning({ version: surveys.version })
        : await tx
            .update(surveys)
            .set(values)
            .where(
              and(
                eq(surveys.tenantId, tenantId),
                eq(surveys.id, survey.id),
                eq(surveys.version, survey.version),
              ),
            )
            .returning({ version: surveys.version });
    if (saved.length === 0) {
      const [current] = await tx
        .select({ version: surveys.version })
        .from(surveys)
        .where(and(eq(surveys.tenantId, tenantId), eq(surveys.id, survey.id)));
      const serverVersion = current?.version ?? 0;
      throw conflict(conflictMessage("survey", serverVersion), serverVersion);
    }
    await tx
      .insert(surveyVersions)
      .values({ tenantId, surveyId: survey.id, version, definition, savedBy: userId });
    return { id: survey.id, version };
  });
}

export async function deleteSurvey(db: Db, tenantId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(surveys)
    .where(and(eq(surveys.tenantId, tenantId), eq(surveys.id, id)))
    .returning({ id: surveys.id });
  if (deleted.length === 0) throw notFound("Survey");
}

/**
 * Which kept versions of a survey a tenant reads: all of its own; of another tenant's survey, only those
 * saved while it was shared (`canSubscribeTo`), never what it was before the owner shared it.
 */
const readableVersions = (found: { row: { tenantId: string }; readOnly: boolean }, id: string) =>
  and(
    eq(surveyVersions.tenantId, found.row.tenantId),
    eq(surveyVersions.surveyId, id),
    found.readOnly ? sql`(${surveyVersions.definition}->>'canSubscribeTo')::boolean is true` : undefined,
  );

/** Kept versions of a readable survey, newest first. */
/** A version's author by name, or null when the version names none. */
function authorName(row: { firstName: string | null; lastName: string | null }): string | null {
  const name = [row.firstName, row.lastName].filter((part) => part !== null && part !== "").join(" ");
  return name === "" ? null : name;
}

export async function listSurveyVersions(db: Db, tenantId: string, id: string): Promise<DocumentVersion[]> {
  const found = await findReadableSurvey(db, tenantId, id);
  if (found === undefined) throw notFound("Survey");
  // The author's name is the practice's own business: a shared survey's versions name nobody.
  const rows = await db
    .select({
      version: surveyVersions.version,
      savedAt: surveyVersions.savedAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(surveyVersions)
    .leftJoin(users, and(eq(users.id, surveyVersions.savedBy), eq(surveyVersions.tenantId, tenantId)))
    .where(readableVersions(found, id))
    .orderBy(desc(surveyVersions.version));
  return rows.map((r) => ({ version: r.version, savedAt: r.savedAt.toISOString(), savedBy: authorName(r) }));
}

/** A readable survey as it was at one version. */
export async function getSurveyVersion(
  db: Db,
  tenantId: string,
  id: string,
  version: number,
): Promise<Survey> {
  const found = await findReadableSurvey(db, tenantId, id);
  if (found === undefined) throw notFound("Survey");
  const [row] = await db
    .select({ definition: surveyVersions.definition })
    .from(surveyVersions)
    .where(and(readableVersions(found, id), eq(surveyVersions.version, version)));
  if (row === undefined) throw notFound("Survey version");
  return { ...row.definition, id, version };
}

const toReportBody = (report: Report): ReportBody => ({
  title: report.title,
  script: report.script,
  markup: report.markup,
  mock: report.mock,
  clinical: report.clinical,
});

export async function listReports(
  db: Db,
  tenantId: string,
): Promise<{ items: ReportSummary[]; total: number }> {
  const rows = await db
    .select({
      id: reports.id,
      title: reports.title,
      version: reports.version,
      definition: reports.definition,
      tenantId: reports.tenantId,
    })
    .from(reports)
    .where(eq(reports.tenantId, tenantId))
    .orderBy(asc(reports.title), asc(reports.id));
  const items = rows.map((r) => ({
    id: r.id,
    title: r.title,
    version: r.version,
    clinical: r.definition.clinical,
    tenantId: r.tenantId,
  }));
  return { items, total: items.length };
}

export async function getReport(
  db: Db,
  tenantId: string,
  id: string,
  newerThan?: number,
): Promise<ReportResponse | undefined> {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.tenantId, tenantId), eq(reports.id, id)))
    .limit(1);
  if (row === undefined) throw notFound("Report");
  if (newerThan !== undefined && row.version <= newerThan) return undefined;
  return { id, ...row.definition, version: row.version, readOnly: false };
}

/** Saves a report with the same version check as surveys. */
export async function saveReport(
  db: Db,
  tenantId: string,
  report: Report,
  userId: string,
): Promise<VersionedSaveResponse> {
  return db.transaction(async (tx) => {
    // As for surveys: a new report under a deleted report's id continues its kept versions.
    const version =
      report.version === 0
        ? (await lastKeptVersion(tx, reportVersions, reportVersions.reportId, tenantId, report.id)) + 1
        : report.version + 1;
    const definition = toReportBody(report);
    const values = { title: report.title, version, definition, updatedAt: new Date() };
    const saved =
      report.version === 0
        ? await tx
            .insert(reports)
            .values({ tenantId, id: report.id, ...values })
            .onConflictDoNothing()
            .returning({ v: reports.version })
        : await tx
            .update(reports)
            .set(values)
            .where(
              and(
                eq(reports.tenantId, tenantId),
                eq(reports.id, report.id),
                eq(reports.version, report.version),
              ),
            )
            .returning({ v: reports.version });
    if (saved.length === 0) {
      const [current] = await tx
        .select({ version: reports.version })
        .from(reports)
        .where(and(eq(reports.tenantId, tenantId), eq(reports.id, report.id)));
      const serverVersion = current?.version ?? 0;
      throw conflict(conflictMessage("report", serverVersion), serverVersion);
    }
    await tx
      .insert(reportVersions)
      .values({ tenantId, reportId: report.id, version, definition, savedBy: userId });
    return { id: report.id, version };
  });
}

export async function deleteReport(db: Db, tenantId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(reports)
    .where(and(eq(reports.tenantId, tenantId), eq(reports.id, id)))
    .returning({ id: reports.id });
  if (deleted.length === 0) throw notFound("Report");
}

export async function listReportVersions(db: Db, tenantId: string, id: string): Promise<DocumentVersion[]> {
  await getReport(db, tenantId, id);
  const rows = await db
    .select({
      version: reportVersions.version,
      savedAt: reportVersions.savedAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(reportVersions)
    .leftJoin(users, eq(users.id, reportVersions.savedBy))
    .where(and(eq(reportVersions.tenantId, tenantId), eq(reportVersions.reportId, id)))
    .orderBy(desc(reportVersions.version));
  return rows.map((r) => ({ version: r.version, savedAt: r.savedAt.toISOString(), savedBy: authorName(r) }));
}

export async function getReportVersion(
  db: Db,
  tenantId: string,
  id: string,
  version: number,
): Promise<Report> {
  const [row] = await db
    .select({ definition: reportVersions.definition })
    .from(reportVersions)
    .where(
      and(
        eq(reportVersions.tenantId, tenantId),
        eq(reportVersions.reportId, id),
        eq(reportVersions.version, version),
      ),
    );
  if (row === undefined) throw notFound("Report version");
  return { id, ...row.definition, version };
}

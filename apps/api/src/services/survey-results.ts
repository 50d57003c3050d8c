import { isDeepStrictEqual } from "node:util";
import { and, count, desc, eq, gte, isNull, sql, type SQL } from "drizzle-orm";
import { durationStart, getAnswer, objectId, PHQ_POINTS, scorePhq } from "@core-care/survey-engine";
import type {
  SurveyResult,
  SurveyResultListQuery,
  SurveyResultSaveRequest,
  SurveyResultSummary,
} from "@core-care/schema";
import { PAGE_SIZE } from "@core-care/schema";
import type { Db, DbOrTx } from "../db/index.js";
import { patients, safetyAlerts, surveyResults, surveyVersions } from "../db/schema.js";
import { conflict, notFound } from "../errors.js";
import { findReadableSurveyRef } from "./documents.js";
import { getPatient } from "./patients.js";

const SUBMITTED = "This survey result has been submitted and can no longer be changed.";

const summaryColumns = {
  id: surveyResults.id,
  surveyId: surveyResults.surveyId,
  surveyTitle: sql<string>`coalesce(${surveyVersions.definition}->>'title', '')`,
  surveyVersion: surveyResults.surveyVersion,
  patientId: surveyResults.patientId,
  patientFirstName: patients.firstName,
  patientLastName: patients.lastName,
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

/** Results of the tenant from the duration filter's start, newest first, 200 a page (SPEC 3, 9). */
export async function listResults(
  db: Db,
  tenantId: string,
  query: SurveyResultListQuery,
  now = new Date(),
): Promise<{ items: SurveyResultSummary[]; total: number }> {
  const conditions: SQL[] = [
    eq(surveyResults.tenantId, tenantId),
    isNull(surveyResults.deletedAt),
    gte(surveyResults.createdAt, durationStart(query.duration, now)),
  ];
  if (query.patientId !== undefined) conditions.push(eq(surveyResults.patientId, query.patientId));
  if (query.surveyId !== undefined) conditions.push(eq(surveyResults.surveyId, query.surveyId));
  const where = and(...conditions);
  const rows = await summaryQuery(db)
    .where(where)
    .orderBy(desc(surveyResults.createdAt), desc(surveyResults.id))
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE);
  const [total] = await db.select({ n: count() }).from(surveyResults).where(where);
  return { items: rows.map(toSummary), total: total?.n ?? 0 };
}

export async function getResult(db: Db, tenantId: string, id: string): Promise<SurveyResult> {
  const [row] = await summaryQuery(db)
    .where(
      and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.id, id), isNull(surveyResults.deletedAt)),
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

/** Opens safety alerts for a submitted result: a positive PHQ-9 item 9, or a severe PHQ-9 total. */
async function raiseSafetyAlerts(
  tx: DbOrTx,
  tenantId: string,
  resultId: string,
  patientId: string,
  answers: Record<string, unknown>,
) {
  const alerts: { kind: string; message: string }[] = [];
  const selfHarm = getAnswer(answers, "depression.phq9SelfHarm");
  if (typeof selfHarm === "string" && (PHQ_POINTS[selfHarm.toLowerCase()] ?? 0) > 0) {
    alerts.push({
      kind: "phq9-self-harm",
      message: "PHQ-9 item 9: thoughts of self-harm reported. Review today.",
    });
  }
  const score = scorePhq(answers);
  if (score.severity === "severe") {
    alerts.push({ kind: "phq9-severe", message: `PHQ-9 total ${score.phq9}: severe depression screen.` });
  }
  for (const alert of alerts) {
    await tx
      .insert(safetyAlerts)
      .values({ tenantId, id: objectId(), resultId, patientId, ...alert })
      .onConflictDoNothing();
  }
}

export interface SaveOutcome {
  id: string;
  created: boolean;
  submitted: boolean;
}

/**
 * Saves a survey result and answers only after the commit. Without `id`, a retried save with the same
 * `clientRequestId` answers the first save's id and stores nothing twice. With `id`, the answers are
 * replaced until the result is submitted; after that only an identical retry of the submitting save
 * answers the id, anything else is 409.
 */
export async function saveResult(
  db: Db,
  tenantId: string,
  input: SurveyResultSaveRequest,
  userId: string,
): Promise<SaveOutcome> {
  if (input.id === undefined) {
    await getPatient(db, tenantId, input.patientId);
    const survey = await findReadableSurveyRef(db, tenantId, input.surveyId);
    if (survey === undefined) throw notFound("Survey");
    const id = objectId();
    const now = new Date();
    const insert = (tx: DbOrTx) =>
      tx
        .insert(surveyResults)
        .values({
          tenantId,
          id,
          surveyId: input.surveyId,
          surveyTenantId: survey.tenantId,
          surveyVersion: survey.version,
          patientId: input.patientId,
          clientRequestId: input.clientRequestId,
          answers: input.answers,
          isSubmitted: input.isSubmitted,
          submittedAt: input.isSubmitted ? now : null,
          createdBy: userId,
        })
        .onConflictDoNothing()
        .returning({ id: surveyResults.id });
    // A plain save is one statement; a submitting one also opens its safety alerts, atomically.
    const inserted = input.isSubmitted
      ? await db.transaction(async (tx) => {
          const rows = await insert(tx);
          if (rows.length > 0) await raiseSafetyAlerts(tx, tenantId, id, input.patientId, input.answers);
          return rows;
        })
      : await insert(db);
    if (inserted.length > 0) return { id, created: true, submitted: input.isSubmitted };
    // A retry of an earlier save: the unique client request id kept one row; answer its id.
    const [raced] = await db
      .select({ id: surveyResults.id })
      .from(surveyResults)
      .where(
        and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.clientRequestId, input.clientRequestId)),
      );
    if (raced === undefined) throw conflict("The survey result could not be saved; please retry.");
    return { id: raced.id, created: false, submitted: false };
  }

  const id = input.id;
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        isSubmitted: surveyResults.isSubmitted,
        answers: surveyResults.answers,
        patientId: surveyResults.patientId,
      })
      .from(surveyResults)
      .where(
        and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.id, id), isNull(surveyResults.deletedAt)),
      )
      .for("update");
    if (current === undefined) throw notFound("Survey result");
    if (current.isSubmitted) {
      if (input.isSubmitted && isDeepStrictEqual(current.answers, input.answers))
        return { id, created: false, submitted: false };
      throw conflict(SUBMITTED);
    }
    const now = new Date();
    await tx
      .update(surveyResults)
      .set({
        answers: input.answers,
        isSubmitted: input.isSubmitted,
        submittedAt: input.isSubmitted ? now : null,
        updatedAt: now,
      })
      .where(and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.id, id)));
    if (input.isSubmitted) await raiseSafetyAlerts(tx, tenantId, id, current.patientId, input.answers);
    return { id, created: false, submitted: input.isSubmitted };
  });
}

import { isDeepStrictEqual } from "node:util";
import { and, eq, isNull, sql } from "drizzle-orm";
import { objectId } from "@core-care/survey-engine";
import type { SurveyResultSaveRequest } from "@core-care/schema";
import { executeOn, rowsOf, type DbOrTx, type Execute } from "../db/index.js";
import { surveyResults } from "../db/schema.js";
import { AppError, conflict, notFound } from "../errors.js";
import { readableSurveySql } from "./documents.js";
import { safetyAlertsOf, type OpenedAlert } from "./safety-alerts.js";

const SUBMITTED = "This survey result has been submitted and can no longer be changed.";

/** One save of a survey result by a signed-in user of a tenant. */
export interface ResultSave {
  tenantId: string;
  userId: string;
  ip: string | null;
  input: SurveyResultSaveRequest;
}

export interface SaveOutcome {
  id: string;
  created: boolean;
  submitted: boolean;
  /** The safety alerts this save opened (a submitting save only). */
  alerts: OpenedAlert[];
}

export type SaveAnswer = { ok: true; outcome: SaveOutcome } | { ok: false; error: AppError };

/** What every saved row carries into the statement besides its answers. */
function rowOf(save: ResultSave, ord: number) {
  const { input } = save;
  return {
    ord,
    tenant_id: save.tenantId,
    user_id: save.userId,
    ip: save.ip,
    audit_id: objectId(),
    answers: input.answers,
    is_submitted: input.isSubmitted,
    alerts: input.isSubmitted ? safetyAlertsOf(input.answers) : [],
  };
}

/**
 * The audit event and, on submission, the safety alerts of each saved row, as the tail of the statement
 * that saves them: CTE `saved` holds (ord, tenant_id, id, patient_id) of what was written, `input` the
 * rows, so a result, its audit trail and its alerts commit together or not at all.
 */
const AUDIT_AND_ALERTS = sql`,
  audited as (
    insert into audit_events (tenant_id, id, user_id, action, entity, entity_id, ip)
    select i.tenant_id, i.audit_id, i.user_id,
      case when i.is_submitted then 'submit' when i.kind = 'create' then 'create' else 'update' end,
      'survey-result', saved.id, i.ip
    from saved join input i on i.ord = saved.ord
  ),
  alerted as (
    insert into safety_alerts (tenant_id, id, result_id, patient_id, kind, message)
    select i.tenant_id, a.id, saved.id, saved.patient_id, a.kind, a.message
    from saved join input i on i.ord = saved.ord,
      jsonb_to_recordset(i.alerts) as a(id text, kind text, message text)
    on conflict do nothing
  )`;

/** The CTE `input`: the saves as rows, from one JSON parameter, so the statement's text never varies. */
const inputOf = (rows: object[]) => sql`
  input as materialized (
    select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as i(ord int, kind text, tenant_id text,
      user_id text, ip text, audit_id text, answers jsonb, is_submitted boolean, alerts jsonb, id text,
      survey_id text, patient_id text, client_request_id text)
  )`;

/** New results: each checked against its tenant's patients and readable surveys, then inserted. */
async function createResults(db: DbOrTx, execute: Execute, saves: ResultSave[]): Promise<SaveAnswer[]> {
  const rows = saves.map((save, ord) => ({
    ...rowOf(save, ord),
    kind: "create",
    id: objectId(),
    survey_id: save.input.surveyId,
    patient_id: save.input.patientId,
    client_request_id: save.input.clientRequestId,
  }));
  const found = rowsOf<{ ord: number; patient: boolean; survey: boolean; id: string | null }>(
    await execute(
      "create-survey-results",
      sql`
      with ${inputOf(rows)},
        checked as materialized (
          select i.ord, i.tenant_id, i.id, i.survey_id, i.patient_id, i.client_request_id, i.answers,
            i.is_submitted, i.user_id, p.id is not null as patient_found, s.tenant_id as survey_tenant_id,
            s.version as survey_version
          from input i
          left join patients p on p.tenant_id = i.tenant_id and p.id = i.patient_id and p.deleted_at is null
          left join lateral (${readableSurveySql(sql`i.tenant_id`, sql`i.survey_id`)}) s on true
        ),
        inserted as (
          insert into survey_results (tenant_id, id, survey_id, survey_tenant_id, survey_version, patient_id,
            client_request_id, answers, is_submitted, submitted_at, created_by)
          select tenant_id, id, survey_id, survey_tenant_id, survey_version, patient_id, client_request_id,
            answers, is_submitted, case when is_submitted then now() end, user_id
          from checked
          where patient_found and survey_tenant_id is not null
          order by ord
          on conflict do nothing
          returning tenant_id, id, patient_id
        ),
        saved as (
          select c.ord, inserted.id, inserted.patient_id
          from inserted join checked c on c.tenant_id = inserted.tenant_id and c.id = inserted.id
        )${AUDIT_AND_ALERTS}
      select c.ord, c.patient_found as patient, c.survey_tenant_id is not null as survey, saved.id
      from checked c left join saved on saved.ord = c.ord
      order by c.ord`,
    ),
  );
  const byOrd = new Map(found.map((row) => [row.ord, row]));
  const answers: SaveAnswer[] = [];
  for (const [ord, save] of saves.entries()) {
    const row = byOrd.get(ord);
    if (row === undefined || !row.patient) answers.push({ ok: false, error: notFound("Patient") });
    else if (!row.survey) answers.push({ ok: false, error: notFound("Survey") });
    else if (row.id !== null)
      answers.push({
        ok: true,
        outcome: {
          id: row.id,
          created: true,
          submitted: save.input.isSubmitted,
          alerts: rows[ord]?.alerts ?? [],
        },
      });
    else answers.push(await earlierSave(db, save));
  }
  return answers;
}

const REUSED_REQUEST_ID =
  "This clientRequestId was already used for a different save; use a new one for a new save.";

/**
 * A retry of an earlier save: the unique client request id kept one row; answer its id. A different
 * save under the same id (another survey, patient, answers or submission) is refused with 422 rather
 * than answered as if it were stored; it is compared with the result as it is stored now.
 */
async function earlierSave(db: DbOrTx, save: ResultSave): Promise<SaveAnswer> {
  const [earlier] = await db
    .select({
      id: surveyResults.id,
      surveyId: surveyResults.surveyId,
      patientId: surveyResults.patientId,
      answers: surveyResults.answers,
      isSubmitted: surveyResults.isSubmitted,
    })
    .from(surveyResults)
    .where(
      and(
        eq(surveyResults.tenantId, save.tenantId),
        eq(surveyResults.clientRequestId, save.input.clientRequestId),
      ),
    );
  if (earlier === undefined)
    return { ok: false, error: conflict("The survey result could not be saved; please retry.") };
  const { input } = save;
  const same =
    earlier.surveyId === input.surveyId &&
    earlier.patientId === input.patientId &&
    earlier.isSubmitted === input.isSubmitted &&
    isDeepStrictEqual(earlier.answers, input.answers);
  if (!same) {
    const error = new AppError(422, "UNPROCESSABLE", `clientRequestId: ${REUSED_REQUEST_ID}`, {
      errors: [{ field: "clientRequestId", message: REUSED_REQUEST_ID }],
    });
    return { ok: false, error };
  }
  return { ok: true, outcome: { id: earlier.id, created: false, submitted: false, alerts: [] } };
}

/**
 * New answers for results not yet submitted. `not is_submitted` is checked on each row's latest version,
 * so of two racing saves of one result, one that submits is never overwritten. At most one save per
 * result in a call (an UPDATE changes a row once).
 */
async function updateResults(db: DbOrTx, execute: Execute, saves: ResultSave[]): Promise<SaveAnswer[]> {
  const rows = saves.map((save, ord) => ({ ...rowOf(save, ord), kind: "update", id: save.input.id }));
  const updated = rowsOf<{ ord: number; id: string | null }>(
    await execute(
      "update-survey-results",
      sql`
      with ${inputOf(rows)},
        changed as (
          update survey_results r
          set answers = i.answers, is_submitted = i.is_submitted,
            submitted_at = case when i.is_submitted then now() end, updated_at = now()
          from input i
          where r.tenant_id = i.tenant_id and r.id = i.id and r.deleted_at is null and not r.is_submitted
          returning i.ord, r.id, r.patient_id
        ),
        saved as (select ord, id, patient_id from changed)${AUDIT_AND_ALERTS}
      select i.ord, saved.id from input i left join saved on saved.ord = i.ord order by i.ord`,
    ),
  );
  const byOrd = new Map(updated.map((row) => [row.ord, row.id]));
  const answers: SaveAnswer[] = [];
  for (const [ord, save] of saves.entries()) {
    const id = byOrd.get(ord) ?? null;
    answers.push(
      id !== null
        ? {
            ok: true,
            outcome: {
              id,
              created: false,
              submitted: save.input.isSubmitted,
              alerts: rows[ord]?.alerts ?? [],
            },
          }
        : await unchangedSave(db, save),
    );
  }
  return answers;
}

/** Why a save changed nothing: no such result of the tenant, or one already submitted. */
async function unchangedSave(db: DbOrTx, save: ResultSave): Promise<SaveAnswer> {
  const id = save.input.id ?? "";
  const [current] = await db
    .select({ isSubmitted: surveyResults.isSubmitted, answers: surveyResults.answers })
    .from(surveyResults)
    .where(
      and(
        eq(surveyResults.tenantId, save.tenantId),
        eq(surveyResults.id, id),
        isNull(surveyResults.deletedAt),
      ),
    );
  if (current === undefined) return { ok: false, error: notFound("Survey result") };
  // Only an identical retry of the submitting save is answered; the result itself no longer changes.
  if (current.isSubmitted && save.input.isSubmitted && isDeepStrictEqual(current.answers, save.input.answers))
    return { ok: true, outcome: { id, created: false, submitted: false, alerts: [] } };
  return { ok: false, error: conflict(SUBMITTED) };
}

/**
 * Saves survey results, each answered only after its commit. Without `id`, a retried save with the same
 * `clientRequestId` answers the first save's id and stores nothing twice. With `id`, the answers are
 * replaced until the result is submitted; after that only an identical retry of the submitting save
 * answers the id, anything else is 409. Each save is checked against its own tenant: a patient, survey
 * or result of another tenant answers 404.
 *
 * However many saves, new ones are one SQL statement and changes another: every check and write
 * (patient, survey, result, audit event, safety alerts) in one round trip, atomic without a transaction.
 * The caller keeps one save per result id in a call. `execute` runs the two statements (outside a
 * transaction, a database's own `execute` prepares them once per connection).
 */
export async function saveResults(
  db: DbOrTx,
  saves: ResultSave[],
  execute: Execute = executeOn(db),
): Promise<SaveAnswer[]> {
  const creates: number[] = [];
  const updates: number[] = [];
  for (const [index, save] of saves.entries()) (save.input.id === undefined ? creates : updates).push(index);
  const answers = new Array<SaveAnswer>(saves.length);
  const settle = async (indexes: number[], run: (batch: ResultSave[]) => Promise<SaveAnswer[]>) => {
    if (indexes.length === 0) return;
    const settled = await run(indexes.map((index) => saves[index] as ResultSave));
    for (const [at, index] of indexes.entries()) answers[index] = settled[at] as SaveAnswer;
  };
  await settle(creates, (batch) => createResults(db, execute, batch));
  await settle(updates, (batch) => updateResults(db, execute, batch));
  return answers;
}

/** One save (see `saveResults`); a 404 or 409 is thrown as its AppError. */
export async function saveResult(
  db: DbOrTx,
  tenantId: string,
  input: SurveyResultSaveRequest,
  userId: string,
  ip: string | null = null,
): Promise<SaveOutcome> {
  const [answer] = await saveResults(db, [{ tenantId, userId, ip, input }]);
  if (answer === undefined) throw new Error("saveResults answered nothing");
  if (!answer.ok) throw answer.error;
  return answer.outcome;
}

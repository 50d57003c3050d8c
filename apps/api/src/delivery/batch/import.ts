import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { checkAnswers, objectId, type Survey } from "@core-care/survey-engine";
import type { BatchUploadResponse, DeliveryFormat } from "@core-care/schema";
import { definitionOf } from "../../services/answer-check.js";
import { rowsOf, type Db } from "../../db/index.js";
import { deliveries, interfaces, patients } from "../../db/schema.js";
import { fieldError } from "../../errors.js";
import { findReadableSurveyRef } from "../../services/documents.js";
import { safetyAlertsOf, type OpenedAlert } from "../../services/safety-alerts.js";
import { enqueueDelivery, INTERFACE_FORMAT } from "../outbox.js";
import { checkRow, type RawRow, type Rejection, type ValidRow } from "./map.js";

/** Most rows one upload may carry. */
export const MAX_BATCH_ROWS = 100_000;

/** The result's idempotency key: the same external id always names the same stored result. */
const clientRequestIdOf = (externalId: string) =>
  `batch-${createHash("sha256").update(externalId).digest("base64url").slice(0, 43)}`;

/** Rows stored or looked at per statement. */
const CHUNK = 1000;

/** The reported rejections of one upload; past this only their count. */
const MAX_REPORTED = 1000;

/** What re-uploading an external id did (docs/api.md, "Batch upload"). */
type Outcome = "created" | "updated" | "unchanged" | "other-record" | "queued" | "removed";

const REFUSALS: Record<Exclude<Outcome, "created" | "updated" | "unchanged">, string> = {
  "other-record": "This external id was uploaded before for another patient or survey; it is not changed.",
  queued: "This external id's result has been queued or sent to an interface; it is not changed.",
  removed: "This external id's result has been removed; restore it first.",
};

interface BatchOptions {
  interfaceId?: string | undefined;
  ip?: string | null;
}

/** Counts and rejected rows of an upload so far. */
interface Tally {
  created: number;
  updated: number;
  unchanged: number;
  rejectedCount: number;
  rejected: Rejection[];
}

/**
 * Stores an upload as it is read, a chunk of rows at a time, so memory holds one chunk whatever the
 * upload's size. Each chunk's patients are looked up in one query and its results written in one
 * statement (atomic on its own). An external id names one result for good (its `clientRequestId`);
 * uploading it again:
 * - same patient, survey and answers: `unchanged`, nothing written;
 * - same patient and survey, other answers, and the result never queued to an interface (no delivery
 *   but failed ones): `updated`, its answers replaced;
 * - otherwise refused, with the reason: another patient or survey, already queued or sent, removed.
 * With `interfaceId`, each created or updated result, and each unchanged one not yet sent there, gets
 * one delivery. Rows after MAX_BATCH_ROWS are not read (one rejection says so).
 */
export async function batchUpload(
  db: Db,
  tenantId: string,
  userId: string,
  rows: AsyncIterable<RawRow> | Iterable<RawRow>,
  options: BatchOptions = {},
): Promise<BatchUploadResponse> {
  const ip = options.ip ?? null;
  let format: DeliveryFormat | undefined;
  if (options.interfaceId !== undefined) {
    const [iface] = await db
      .select({ type: interfaces.type })
      .from(interfaces)
      .where(and(eq(interfaces.tenantId, tenantId), eq(interfaces.id, options.interfaceId)));
    if (iface === undefined) throw fieldError("interfaceId", "This interface does not exist.");
    format = INTERFACE_FORMAT[iface.type];
  }
  const tally: Tally = { created: 0, updated: 0, unchanged: 0, rejectedCount: 0, rejected: [] };
  const reject = (rejection: Rejection) => {
    tally.rejectedCount++;
    if (tally.rejected.length < MAX_REPORTED) tally.rejected.push(rejection);
  };
  const surveysSeen = new Map<string, { tenantId: string; version: number; definition: Survey } | null>();
  const externalIds = new Set<string>();
  let chunk: ValidRow[] = [];
  let read = 0;
  const flush = async () => {
    if (chunk.length === 0) return;
    const rows = chunk;
    chunk = [];
    await storeChunk(db, tenantId, userId, rows, { surveysSeen, reject, tally, ip, format, options });
  };
  for await (const raw of rows) {
    // Rows refused before any is stored make no round trip to the database: let other requests in.
    if (read % CHUNK === CHUNK - 1) await nextTurn();
    if (++read > MAX_BATCH_ROWS) {
      reject({
        row: raw.row,
        field: "content",
        message: `At most ${MAX_BATCH_ROWS} rows per upload; this row and those after it were not read.`,
      });
      break;
    }
    const checked = checkRow(raw);
    if (!("externalId" in checked)) {
      reject(checked);
      continue;
    }
    if (externalIds.has(checked.externalId)) {
      reject({
        row: checked.row,
        field: "externalId",
        message: "This external id appears twice in the upload.",
      });
      continue;
    }
    externalIds.add(checked.externalId);
    chunk.push(checked);
    if (chunk.length >= CHUNK) await flush();
  }
  await flush();
  if (read === 0) throw fieldError("content", "The upload has no rows.");
  const accepted = tally.created + tally.updated + tally.unchanged;
  return {
    accepted,
    rejected: tally.rejected.sort((a, b) => a.row - b.row),
    created: tally.created,
    updated: tally.updated,
    unchanged: tally.unchanged,
    rejectedCount: tally.rejectedCount,
  };
}

interface ChunkContext {
  surveysSeen: Map<string, { tenantId: string; version: number; definition: Survey } | null>;
  reject: (rejection: Rejection) => void;
  tally: Tally;
  ip: string | null;
  format: DeliveryFormat | undefined;
  options: BatchOptions;
}

async function storeChunk(
  db: Db,
  tenantId: string,
  userId: string,
  rows: ValidRow[],
  context: ChunkContext,
): Promise<void> {
  const { surveysSeen, reject, tally } = context;
  // The chunk's patients in one query, by id and by MRN.
  const ids = [...new Set(rows.flatMap((r) => (r.patientId === undefined ? [] : [r.patientId])))];
  const mrns = [...new Set(rows.flatMap((r) => (r.mrn === undefined ? [] : [r.mrn])))];
  const found = await db
    .select({ id: patients.id, mrn: patients.mrn })
    .from(patients)
    .where(
      and(
        eq(patients.tenantId, tenantId),
        isNull(patients.deletedAt),
        or(
          ids.length === 0 ? sql`false` : inArray(patients.id, ids),
          mrns.length === 0 ? sql`false` : inArray(patients.mrn, mrns),
        ),
      ),
    );
  const byId = new Set(found.map((p) => p.id));
  const byMrn = new Map(found.map((p) => [p.mrn, p.id]));
  const input: {
    ord: number;
    id: string;
    client_request_id: string;
    survey_id: string;
    survey_tenant_id: string;
    survey_version: number;
    patient_id: string;
    answers: Record<string, unknown>;
    alerts: OpenedAlert[];
  }[] = [];
  const rowNumbers: number[] = [];
  for (const row of rows) {
    let patientId: string | undefined;
    if (row.patientId !== undefined) {
      if (!byId.has(row.patientId)) {
        reject({ row: row.row, field: "patientId", message: "No such patient." });
        continue;
      }
      patientId = row.patientId;
    } else {
      patientId = byMrn.get(row.mrn ?? "");
      if (patientId === undefined) {
        reject({ row: row.row, field: "mrn", message: "No patient has this MRN." });
        continue;
      }
    }
    if (!surveysSeen.has(row.surveyId)) {
      const ref = await findReadableSurveyRef(db, tenantId, row.surveyId);
      const definition =
        ref === undefined ? undefined : await definitionOf(db, ref.tenantId, row.surveyId, ref.version);
      surveysSeen.set(
        row.surveyId,
        ref === undefined || definition === undefined
          ? null
          : { tenantId: ref.tenantId, version: ref.version, definition },
      );
    }
    const survey = surveysSeen.get(row.surveyId);
    if (survey === null || survey === undefined) {
      reject({ row: row.row, field: "surveyId", message: "No such survey." });
      continue;
    }
    // Answers the survey does not allow (a choice it does not offer, a number out of range, a malformed
    // date) are refused as from the tablet. Imported results may be partial: required questions are not
    // asked for (docs/api.md, "Batch upload").
    const [issue] = checkAnswers(survey.definition, row.answers);
    if (issue !== undefined) {
      reject({ row: row.row, field: `answers.${issue.field}`, message: issue.message });
      continue;
    }
    rowNumbers.push(row.row);
    input.push({
      ord: input.length,
      id: objectId(),
      client_request_id: clientRequestIdOf(row.externalId),
      survey_id: row.surveyId,
      survey_tenant_id: survey.tenantId,
      survey_version: survey.version,
      patient_id: patientId,
      answers: row.answers,
      alerts: safetyAlertsOf(row.answers),
    });
  }
  if (input.length === 0) return;
  const outcomes = rowsOf<{ ord: number; id: string; outcome: Outcome }>(
    await db.execute(sql`
      with input as materialized (
        select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as i(ord int, id text,
          client_request_id text, survey_id text, survey_tenant_id text, survey_version int, patient_id text,
          answers jsonb, alerts jsonb)
      ),
      existing as materialized (
        select i.ord, r.id,
          case
            when r.deleted_at is not null then 'removed'
            when r.survey_id <> i.survey_id or r.patient_id <> i.patient_id then 'other-record'
            when r.answers = i.answers then 'unchanged'
            when exists (select 1 from deliveries d where d.tenant_id = r.tenant_id and d.result_id = r.id
              and d.status <> 'failed') then 'queued'
            else 'updated'
          end as outcome
        from input i
        join survey_results r on r.tenant_id = ${tenantId} and r.client_request_id = i.client_request_id
      ),
      inserted as (
        insert into survey_results (tenant_id, id, survey_id, survey_tenant_id, survey_version, patient_id,
          client_request_id, answers, is_submitted, submitted_at, created_by)
        select ${tenantId}, i.id, i.survey_id, i.survey_tenant_id, i.survey_version, i.patient_id,
          i.client_request_id, i.answers, true, now(), ${userId}
        from input i
        where not exists (select 1 from existing e where e.ord = i.ord)
        order by i.ord
        on conflict do nothing
        returning id
      ),
      updated as (
        update survey_results r set answers = i.answers, updated_at = now()
        from input i join existing e on e.ord = i.ord and e.outcome = 'updated'
        where r.tenant_id = ${tenantId} and r.id = e.id
        returning r.id
      ),
      alerted as (
        insert into safety_alerts (tenant_id, id, result_id, patient_id, kind, message)
        select ${tenantId}, a.id, i.id, i.patient_id, a.kind, a.message
        from input i join inserted on inserted.id = i.id,
          jsonb_to_recordset(i.alerts) as a(id text, kind text, message text)
        on conflict do nothing
      )
      select i.ord, coalesce(e.id, i.id) as id,
        case when e.ord is not null then e.outcome
          when exists (select 1 from inserted where inserted.id = i.id) then 'created'
          else 'raced' end as outcome
      from input i left join existing e on e.ord = i.ord
      order by i.ord`),
  );
  const sendable: { id: string; outcome: Outcome }[] = [];
  for (const { ord, id, outcome } of outcomes) {
    const row = { row: rowNumbers[ord] ?? 0 };
    switch (outcome) {
      case "created":
      case "updated":
      case "unchanged":
        tally[outcome]++;
        sendable.push({ id, outcome });
        break;
      case "other-record":
      case "queued":
      case "removed":
        reject({ row: row.row, field: "externalId", message: REFUSALS[outcome] });
        break;
      default:
        // Another upload stored the same external id between this statement's look and its insert.
        reject({
          row: row.row,
          field: "externalId",
          message: "Another upload stored this external id at the same moment; upload it again.",
        });
    }
  }
  const { interfaceId } = context.options;
  if (interfaceId === undefined || context.format === undefined) return;
  const format = context.format;
  for (const { id, outcome } of sendable) {
    await db.transaction(async (tx) => {
      // An updated result has no delivery but failed ones (the rule above): it is sent again.
      const [existing] =
        outcome === "updated"
          ? []
          : await tx
              .select({ id: deliveries.id })
              .from(deliveries)
              .where(
                and(
                  eq(deliveries.tenantId, tenantId),
                  eq(deliveries.resultId, id),
                  eq(deliveries.interfaceId, interfaceId),
                ),
              )
              .limit(1);
      if (existing !== undefined) return;
      await enqueueDelivery(tx, {
        tenantId,
        resultId: id,
        interfaceId,
        locationId: null,
        format,
        userId,
        ip: context.ip,
      });
    });
  }
}

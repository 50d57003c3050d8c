import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { checkAnswers, objectId, type Survey } from "@core-care/survey-engine";
import { definitionOf } from "../services/answer-check.js";
import {
  ObjectIdSchema,
  type BatchUploadRequest,
  type BatchUploadResponse,
  type DeliveryFormat,
} from "@core-care/schema";
import { rowsOf, type Db } from "../db/index.js";
import { deliveries, interfaces, patients } from "../db/schema.js";
import { fieldError } from "../errors.js";
import { firstBadField } from "../plugins/input-guard.js";
import { JSON_BODY_LIMITS, JsonShapeScanner, shapeMessage, skipJsonValue } from "../plugins/json-shape.js";
import { findReadableSurveyRef } from "../services/documents.js";
import { safetyAlertsOf, type OpenedAlert } from "../services/safety-alerts.js";
import { enqueueDelivery, INTERFACE_FORMAT } from "./outbox.js";

/** Most rows one upload may carry. */
export const MAX_BATCH_ROWS = 100_000;

type Rejection = BatchUploadResponse["rejected"][number];

/** One row of an upload before validation: its position (1-based, header excluded) and its fields. */
export interface RawRow {
  row: number;
  externalId: unknown;
  patientId: unknown;
  mrn: unknown;
  surveyId: unknown;
  answers: unknown;
  /** Why the row was refused as it was read (a JSON row past the shape limits), if it was. */
  fault?: { field: string; message: string };
}

const RESERVED_COLUMNS = new Set(["externalId", "patientId", "mrn", "surveyId"]);
const EXTERNAL_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * RFC 4180 CSV read a piece at a time: quoted fields may hold commas, quotes ("") and line breaks, and
 * a piece may end anywhere (inside a quoted field, between "" or \r\n). Holds one row at most.
 */
export class CsvReader {
  private row: string[] = [];
  private cell = "";
  private quoted = false;
  /** A quote inside a quoted field: the end of the field, or the first of "". */
  private quote = false;
  private skipLf = false;
  private started = false;
  private size = 0;

  constructor(
    private readonly maxRowChars = 1024 * 1024,
    /** The most cells a row may have: an upload's columns become the keys of each row's answers. */
    private readonly maxCells = JSON_BODY_LIMITS.width,
  ) {}

  /** The rows the text completes. */
  push(text: string): string[][] {
    const rows: string[][] = [];
    let source = text;
    if (!this.started && source.length > 0) {
      this.started = true;
      source = source.replace(/^\uFEFF/, "");
    }
    for (let i = 0; i < source.length; i++) {
      const ch = source[i]!;
      if (this.skipLf) {
        this.skipLf = false;
        if (ch === "\n") continue;
      }
      if (this.quote) {
        this.quote = false;
        if (ch === '"') {
          this.cell += '"';
          continue;
        }
        this.quoted = false;
      }
      if (this.quoted) {
        if (ch === '"') this.quote = true;
        else this.cell += ch;
      } else if (ch === '"' && this.cell === "") this.quoted = true;
      else if (ch === ",") {
        this.row.push(this.cell);
        this.cell = "";
        if (this.row.length >= this.maxCells) throw fieldError("content", this.tooManyCells);
      } else if (ch === "\n" || ch === "\r") {
        this.skipLf = ch === "\r";
        this.row.push(this.cell);
        rows.push(this.row);
        this.row = [];
        this.cell = "";
        this.size = 0;
        continue;
      } else this.cell += ch;
      if (++this.size > this.maxRowChars)
        throw fieldError("content", "A row of the CSV is longer than 1 MiB.");
    }
    return rows.filter((r) => r.some((c) => c.trim() !== ""));
  }

  private get tooManyCells() {
    return `A row of the CSV has more than ${this.maxCells.toLocaleString("en-US")} cells.`;
  }

  /** The last row, when the text does not end in a line break. */
  end(): string[][] {
    if (this.quoted && !this.quote) throw fieldError("content", "The CSV has an unterminated quoted field.");
    this.quoted = false;
    this.quote = false;
    const last = this.cell !== "" || this.row.length > 0 ? [[...this.row, this.cell]] : [];
    this.row = [];
    this.cell = "";
    return last.filter((r) => r.some((c) => c.trim() !== ""));
  }
}

/** RFC 4180 CSV of a whole text. */
export function parseCsv(text: string): string[][] {
  const reader = new CsvReader(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  return [...reader.push(text), ...reader.end()];
}

function setPath(target: Record<string, unknown>, path: string, value: unknown) {
  const parts = path.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (part === "__proto__" || part === "constructor" || part === "prototype") return;
    const next = node[part];
    node[part] = next !== null && typeof next === "object" && !Array.isArray(next) ? next : {};
    node = node[part] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (last === "__proto__" || last === "constructor" || last === "prototype") return;
  node[last] = value;
}

/** A JSON object of an upload as a row. */
function rowOfObject(item: unknown, row: number): RawRow {
  const o = (item !== null && typeof item === "object" ? item : {}) as Record<string, unknown>;
  return {
    row,
    externalId: o.externalId,
    patientId: o.patientId,
    mrn: o.mrn,
    surveyId: o.surveyId,
    answers: o.answers,
  };
}

/** Reads CSV data rows by the header's names; columns other than the reserved ones are answers. */
function csvRowReader(header: string[]): (cells: string[], row: number) => RawRow {
  const names = header.map((h) => h.trim());
  if (!names.includes("externalId") || !names.includes("surveyId")) {
    throw fieldError("content", "The CSV header must name externalId, surveyId and patientId or mrn.");
  }
  return (cells, row) => {
    const value = (name: string) => {
      const index = names.indexOf(name);
      return index === -1 ? undefined : cells[index]?.trim() || undefined;
    };
    const answers: Record<string, unknown> = {};
    names.forEach((name, c) => {
      const cell = cells[c];
      if (!RESERVED_COLUMNS.has(name) && name !== "" && cell !== undefined && cell.trim() !== "")
        setPath(answers, name, cell);
    });
    return {
      row,
      externalId: value("externalId"),
      patientId: value("patientId"),
      mrn: value("mrn"),
      surveyId: value("surveyId"),
      answers,
    };
  };
}

/** One scanner for every row of every upload: a scan runs to its end before anything else does. */
const rowShape = new JsonShapeScanner(JSON_BODY_LIMITS);

const NOT_JSON = "The content is not valid JSON.";

const skipSpace = (bytes: Buffer, from: number) => {
  let i = from;
  for (let c = bytes[i]; c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;) c = bytes[++i];
  return i;
};

/**
 * The elements of a JSON array's UTF-8 bytes, each as where it starts and ends and, when it is past the
 * shape limits of a request body, why: found by scanning, nothing parsed. Throws naming `content` when
 * the array's own brackets and commas are not JSON.
 */
function* elementsOf(bytes: Buffer): Generator<{ start: number; end: number; fault: string | undefined }> {
  let i = skipSpace(bytes, 0);
  if (bytes[i] !== 0x5b) {
    throw fieldError(
      "content",
      i < bytes.length && bytes[i] !== 0x7b ? NOT_JSON : "The JSON content must be an array of results.",
    );
  }
  i = skipSpace(bytes, i + 1);
  if (bytes[i] === 0x5d) {
    if (skipSpace(bytes, i + 1) !== bytes.length) throw fieldError("content", NOT_JSON);
    return;
  }
  for (;;) {
    const start = i;
    const scanned = rowShape.scan(bytes, start);
    const fault = scanned < 0 ? shapeMessage(scanned, JSON_BODY_LIMITS) : undefined;
    const end = scanned < 0 ? skipJsonValue(bytes, start) : scanned;
    yield { start, end, fault };
    i = skipSpace(bytes, end);
    const c = bytes[i];
    if (c === 0x2c) i = skipSpace(bytes, i + 1);
    else if (c === 0x5d && skipSpace(bytes, i + 1) === bytes.length) return;
    else throw fieldError("content", NOT_JSON);
  }
}

/**
 * The rows of a JSON array of results, each parsed only as it is read, so that an upload's rows are
 * parsed and stored a chunk at a time as a streamed upload's are, and each row is held to a request
 * body's shape limits (a row past them is refused with the reason, the others read on). The array's
 * punctuation is checked whole first: an upload that cannot be read stores nothing.
 */
function jsonArrayRows(text: string): Iterable<RawRow> {
  const bytes = Buffer.from(text, "utf8");
  const check = elementsOf(bytes);
  while (check.next().done !== true);
  return (function* () {
    let row = 0;
    for (const { start, end, fault } of elementsOf(bytes)) {
      row++;
      if (fault !== undefined) {
        yield { ...rowOfObject(null, row), fault: { field: "row", message: fault } };
        continue;
      }
      let item: unknown = null;
      try {
        item = JSON.parse(bytes.toString("utf8", start, end));
      } catch {
        // Reported as a row with no fields, as an unreadable streamed line is.
      }
      yield rowOfObject(item, row);
    }
  })();
}

/** A text sent whole, in the pieces a stream would bring it in. */
function* piecesOf(text: string, size = 64 * 1024): Generator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

/**
 * The rows of an upload sent as a JSON body (`{ format, content }`), read as a streamed upload's are: a
 * row at a time, held to the same limits.
 */
export function parseUpload(
  request: Pick<BatchUploadRequest, "format" | "content">,
): Iterable<RawRow> | AsyncIterable<RawRow> {
  return request.format === "json" ? jsonArrayRows(request.content) : csvRows(piecesOf(request.content));
}

/** Text of a byte stream, decoded as UTF-8 across chunk boundaries. */
async function* textOf(
  stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of stream) {
    yield typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  }
  const rest = decoder.decode();
  if (rest !== "") yield rest;
}

/** The rows of a streamed CSV body, read as they arrive. */
export async function* csvRows(
  stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<RawRow> {
  const reader = new CsvReader();
  let read: ((cells: string[], row: number) => RawRow) | undefined;
  let row = 0;
  const rowsOf = function* (cellRows: string[][]) {
    for (const cells of cellRows) {
      if (read === undefined) read = csvRowReader(cells);
      else yield read(cells, ++row);
    }
  };
  for await (const text of textOf(stream)) yield* rowsOf(reader.push(text));
  yield* rowsOf(reader.end());
  if (read === undefined) throw fieldError("content", "The CSV has no header row.");
}

/** The rows of a streamed NDJSON body: one JSON object a line. */
export async function* ndjsonRows(
  stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<RawRow> {
  let pending = "";
  let row = 0;
  const parse = (line: string): RawRow => {
    row++;
    const scanned = rowShape.scan(Buffer.from(line, "utf8"));
    if (scanned < 0) {
      return {
        ...rowOfObject(null, row),
        fault: { field: "row", message: shapeMessage(scanned, JSON_BODY_LIMITS) },
      };
    }
    try {
      return rowOfObject(JSON.parse(line), row);
    } catch {
      return rowOfObject(null, row);
    }
  };
  for await (const text of textOf(stream)) {
    pending += text;
    let at: number;
    while ((at = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, at).trim();
      pending = pending.slice(at + 1);
      if (line !== "") yield parse(line);
    }
    if (pending.length > 1024 * 1024)
      throw fieldError("content", "A line of the upload is longer than 1 MiB.");
  }
  if (pending.trim() !== "") yield parse(pending.trim());
}

/** The result's idempotency key: the same external id always names the same stored result. */
const clientRequestIdOf = (externalId: string) =>
  `batch-${createHash("sha256").update(externalId).digest("base64url").slice(0, 43)}`;

interface ValidRow {
  row: number;
  externalId: string;
  patientId?: string;
  mrn?: string;
  surveyId: string;
  answers: Record<string, unknown>;
}

/** A row's own fields checked; its patient and survey are looked up a chunk at a time. */
function checkRow(raw: RawRow): ValidRow | Rejection {
  const reject = (field: string, message: string): Rejection => ({ row: raw.row, field, message });
  if (raw.fault !== undefined) return reject(raw.fault.field, raw.fault.message);
  if (typeof raw.externalId !== "string" || !EXTERNAL_ID.test(raw.externalId)) {
    return reject("externalId", "Must be 1 to 128 of A-Z a-z 0-9 _ . : -");
  }
  if (typeof raw.surveyId !== "string" || raw.surveyId === "")
    return reject("surveyId", "This field is required.");
  if (raw.answers === null || typeof raw.answers !== "object" || Array.isArray(raw.answers)) {
    return reject("answers", "Must be an object of answers keyed by field name.");
  }
  if (Object.keys(raw.answers).length === 0) return reject("answers", "This row has no answers.");
  // What the JSON body's guard checks for a whole request, each streamed row gets here.
  const bad = firstBadField(
    {
      externalId: raw.externalId,
      patientId: raw.patientId,
      mrn: raw.mrn,
      surveyId: raw.surveyId,
      answers: raw.answers,
    },
    "row",
  );
  if (bad !== undefined) return reject(bad.field, bad.message);
  const base = {
    row: raw.row,
    externalId: raw.externalId,
    surveyId: raw.surveyId,
    answers: raw.answers as Record<string, unknown>,
  };
  if (typeof raw.patientId === "string" && raw.patientId !== "") {
    if (!ObjectIdSchema.safeParse(raw.patientId).success)
      return reject("patientId", "Must be a 24-character hexadecimal id.");
    return { ...base, patientId: raw.patientId };
  }
  if (typeof raw.mrn === "string" && raw.mrn !== "") return { ...base, mrn: raw.mrn };
  return reject("patientId", "Give patientId or mrn.");
}

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

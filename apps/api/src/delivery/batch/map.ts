/**
 * What an upload's records mean: each CSV row by its header's names (columns other than the reserved
 * ones are answers, at the engine's paths: `depression.phq9LittleInterest`, `meds.0.name`), each JSON
 * object by its keys; and a row's own fields checked before its patient and survey are looked up.
 */
import { answersFromEntries, splitPath } from "@core-care/survey-engine";
import { ObjectIdSchema, type BatchUploadRequest, type BatchUploadResponse } from "@core-care/schema";
import { fieldError } from "../../errors.js";
import { firstBadField } from "../../plugins/input-guard.js";
import {
  csvRecords,
  jsonArrayRecords,
  MAX_CELLS,
  ndjsonRecords,
  piecesOf,
  type JsonRecord,
} from "./parse.js";

export type Rejection = BatchUploadResponse["rejected"][number];

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

/** A row whose own fields are sound; its patient and survey are looked up a chunk at a time. */
export interface ValidRow {
  row: number;
  externalId: string;
  patientId?: string;
  mrn?: string;
  surveyId: string;
  answers: Record<string, unknown>;
}

const RESERVED_COLUMNS = new Set(["externalId", "patientId", "mrn", "surveyId"]);
const EXTERNAL_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A JSON record of an upload as a row. */
function rowOfRecord(record: JsonRecord, row: number): RawRow {
  const o = (record.value !== null && typeof record.value === "object" ? record.value : {}) as Record<
    string,
    unknown
  >;
  return {
    row,
    externalId: o.externalId,
    patientId: o.patientId,
    mrn: o.mrn,
    surveyId: o.surveyId,
    answers: o.answers,
    ...(record.fault === undefined ? {} : { fault: { field: "row", message: record.fault } }),
  };
}

/** Reads CSV data rows by the header's names; columns other than the reserved ones are answers. */
function csvRowReader(header: string[]): (cells: string[], row: number) => RawRow {
  const names = header.map((h) => h.trim());
  if (!names.includes("externalId") || !names.includes("surveyId")) {
    throw fieldError("content", "The CSV header must name externalId, surveyId and patientId or mrn.");
  }
  // A list position past what a JSON body may hold would make a list of that length out of one cell.
  const tooFar = names.find((name) => splitPath(name).some((s) => /^\d+$/.test(s) && Number(s) >= MAX_CELLS));
  if (tooFar !== undefined) {
    throw fieldError(
      "content",
      `The column "${tooFar.slice(0, 80)}" names a list position of ${MAX_CELLS.toLocaleString("en-US")} or more.`,
    );
  }
  const answerColumns = names.flatMap((name, c) => (RESERVED_COLUMNS.has(name) || name === "" ? [] : [c]));
  const at = (name: string) => names.indexOf(name);
  const reserved = {
    externalId: at("externalId"),
    patientId: at("patientId"),
    mrn: at("mrn"),
    surveyId: at("surveyId"),
  };
  const value = (cells: string[], index: number) =>
    index === -1 ? undefined : cells[index]?.trim() || undefined;
  return (cells, row) => ({
    row,
    externalId: value(cells, reserved.externalId),
    patientId: value(cells, reserved.patientId),
    mrn: value(cells, reserved.mrn),
    surveyId: value(cells, reserved.surveyId),
    answers: answersFromEntries(
      answerColumns.flatMap((c) => {
        const cell = cells[c];
        return cell === undefined || cell.trim() === "" ? [] : [[names[c] as string, cell] as const];
      }),
    ),
  });
}

/** The rows of a streamed CSV body, read as they arrive: the first row is the header. */
export async function* csvRows(
  stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<RawRow> {
  let read: ((cells: string[], row: number) => RawRow) | undefined;
  let row = 0;
  for await (const cells of csvRecords(stream)) {
    if (read === undefined) read = csvRowReader(cells);
    else yield read(cells, ++row);
  }
  if (read === undefined) throw fieldError("content", "The CSV has no header row.");
}

/** The rows of a streamed NDJSON body: one JSON object a line. */
export async function* ndjsonRows(
  stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<RawRow> {
  let row = 0;
  for await (const record of ndjsonRecords(stream)) yield rowOfRecord(record, ++row);
}

/**
 * The rows of an upload sent as a JSON body (`{ format, content }`), read as a streamed upload's are: a
 * row at a time, held to the same limits.
 */
export function parseUpload(
  request: Pick<BatchUploadRequest, "format" | "content">,
): Iterable<RawRow> | AsyncIterable<RawRow> {
  if (request.format !== "json") return csvRows(piecesOf(request.content));
  const records = jsonArrayRecords(request.content);
  return (function* () {
    let row = 0;
    for (const record of records) yield rowOfRecord(record, ++row);
  })();
}

/** A row's own fields checked; its patient and survey are looked up a chunk at a time. */
export function checkRow(raw: RawRow): ValidRow | Rejection {
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

/**
 * Reading an upload's bytes into records, nothing more: CSV by `csv-parse` (RFC 4180: quoted fields may
 * hold commas, quotes and line breaks; a chunk may end anywhere, in a quoted field, between `""`, inside
 * CR LF or a character's UTF-8 bytes; a BOM is dropped), NDJSON a line at a time, and the JSON array of a
 * JSON body an element at a time. Each record is held to a request body's limits as it is read; what a
 * record means is `map.ts`'s.
 */
import { pipeline, Readable } from "node:stream";
import { CsvError, parse, type Options } from "csv-parse";
import { parse as parseSync } from "csv-parse/sync";
import { fieldError } from "../../errors.js";
import { JSON_BODY_LIMITS, JsonShapeScanner, shapeMessage, skipJsonValue } from "../../plugins/json-shape.js";

/** The longest row of a CSV, and the longest line of an NDJSON upload. */
export const MAX_ROW_CHARS = 1024 * 1024;

/** The most cells a CSV row may have: an upload's columns become the keys of each row's answers. */
export const MAX_CELLS = JSON_BODY_LIMITS.width;

/** A JSON record: the parsed value, or why it was refused as it was read (past the shape limits). */
export type JsonRecord = { value: unknown; fault?: undefined } | { value?: undefined; fault: string };

const CSV_OPTIONS: Options = {
  bom: true,
  // Line breaks as each sender writes them, one file even mixing them.
  record_delimiter: ["\r\n", "\n", "\r"],
  // A quote inside an unquoted field, or text after a closing quote, is kept as text.
  relax_quotes: true,
  relax_column_count: true,
  max_record_size: MAX_ROW_CHARS,
};

/** What a CSV's reader found wrong, named on `content` without quoting the file's text. */
function csvFault(error: unknown): Error {
  if (!(error instanceof CsvError)) return error instanceof Error ? error : new Error(String(error));
  if (error.code === "CSV_QUOTE_NOT_CLOSED")
    return fieldError("content", "The CSV has an unterminated quoted field.");
  if (error.code === "CSV_MAX_RECORD_SIZE")
    return fieldError("content", "A row of the CSV is longer than 1 MiB.");
  const line = typeof error.lines === "number" ? ` at line ${error.lines}` : "";
  return fieldError("content", `The CSV cannot be read${line}.`);
}

const isBlank = (cells: string[]) => cells.every((cell) => cell.trim() === "");

function checkCells(cells: string[]): string[] {
  if (cells.length > MAX_CELLS) {
    throw fieldError("content", `A row of the CSV has more than ${MAX_CELLS.toLocaleString("en-US")} cells.`);
  }
  return cells;
}

/** The rows of a streamed CSV (bytes or text) as their cells, blank rows left out, read as they arrive. */
export async function* csvRecords(
  stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<string[]> {
  const parser = parse(CSV_OPTIONS);
  // The parser ends the source when it fails or is left, and its failure reaches the loop below.
  pipeline(Readable.from(stream, { objectMode: false }), parser, () => {});
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (!isBlank(cells)) yield checkCells(cells);
    }
  } catch (error) {
    throw csvFault(error);
  }
}

/** RFC 4180 CSV of a whole text, read as an upload's is but without its row limits. */
export function parseCsv(text: string): string[][] {
  try {
    const rows: string[][] = parseSync(text, { ...CSV_OPTIONS, max_record_size: 0 });
    return rows.filter((cells) => !isBlank(cells));
  } catch (error) {
    throw csvFault(error);
  }
}

/** One scanner for every record of every upload: a scan runs to its end before anything else does. */
const rowShape = new JsonShapeScanner(JSON_BODY_LIMITS);

const NOT_JSON = "The content is not valid JSON.";

/** JSON bytes as a record (`fault`, when a scan refused them, is why): parsed only when within the limits. */
function jsonRecord(bytes: Buffer, start: number, end: number, fault: string | undefined): JsonRecord {
  if (fault !== undefined) return { fault };
  try {
    return { value: JSON.parse(bytes.toString("utf8", start, end)) };
  } catch {
    // Reported as a row with no fields, as an unreadable line of a streamed upload is.
    return { value: null };
  }
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

/** One line of an NDJSON upload as a record, held to a request body's shape limits. */
function lineRecord(line: string): JsonRecord {
  const bytes = Buffer.from(line, "utf8");
  const scanned = rowShape.scan(bytes);
  return jsonRecord(
    bytes,
    0,
    bytes.length,
    scanned < 0 ? shapeMessage(scanned, JSON_BODY_LIMITS) : undefined,
  );
}

/** The records of a streamed NDJSON body: one JSON object a line, blank lines left out. */
export async function* ndjsonRecords(
  stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<JsonRecord> {
  let pending = "";
  for await (const text of textOf(stream)) {
    pending += text;
    let at: number;
    while ((at = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, at).trim();
      pending = pending.slice(at + 1);
      if (line !== "") yield lineRecord(line);
    }
    if (pending.length > MAX_ROW_CHARS)
      throw fieldError("content", "A line of the upload is longer than 1 MiB.");
  }
  if (pending.trim() !== "") yield lineRecord(pending.trim());
}

const skipSpace = (bytes: Buffer, from: number) => {
  let i = from;
  for (let c = bytes[i]; c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;) c = bytes[++i];
  return i;
};

/**
 * The elements of a JSON array's UTF-8 bytes, each as where it starts and ends and, when it is past the
 * shape limits of a request body, why: found by scanning, nothing parsed. Throws naming `content` when the array's own brackets and commas are not JSON.
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
 * The records of a JSON array of results, each parsed only as it is read, so that an upload's rows are
 * parsed and stored a chunk at a time as a streamed upload's are. The array's punctuation is checked
 * whole first: an upload that cannot be read stores nothing.
 */
export function jsonArrayRecords(text: string): Iterable<JsonRecord> {
  const bytes = Buffer.from(text, "utf8");
  const check = elementsOf(bytes);
  while (check.next().done !== true);
  return (function* () {
    for (const { start, end, fault } of elementsOf(bytes)) yield jsonRecord(bytes, start, end, fault);
  })();
}

/** A text sent whole, in the pieces a stream would bring it in. */
export function* piecesOf(text: string, size = 64 * 1024): Generator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

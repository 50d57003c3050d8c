import { createHash } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import {
  ObjectIdSchema,
  type BatchUploadRequest,
  type BatchUploadResponse,
  type DeliveryFormat,
} from "@core-care/schema";
import type { Db } from "../db/index.js";
import { deliveries, interfaces, patients } from "../db/schema.js";
import { AppError, fieldError } from "../errors.js";
import { findReadableSurvey } from "../services/documents.js";
import { saveResult } from "../services/result-saves.js";
import { enqueueDelivery, INTERFACE_FORMAT } from "./outbox.js";

/** Most rows one upload may carry. */
export const MAX_BATCH_ROWS = 5_000;

type Rejection = BatchUploadResponse["rejected"][number];

/** One row of an upload before validation: its position (1-based, header excluded) and its fields. */
interface RawRow {
  row: number;
  externalId: unknown;
  patientId: unknown;
  mrn: unknown;
  surveyId: unknown;
  answers: unknown;
}

const RESERVED_COLUMNS = new Set(["externalId", "patientId", "mrn", "surveyId"]);
const EXTERNAL_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const source = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (quoted) {
      if (ch === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === "") quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && source[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (quoted) throw fieldError("content", "The CSV has an unterminated quoted field.");
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows.filter((r) => r.some((c) => c.trim() !== ""));
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

/** The rows of an upload; CSV columns other than the reserved ones are answers named by field. */
export function parseUpload(request: Pick<BatchUploadRequest, "format" | "content">): RawRow[] {
  if (request.format === "json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(request.content);
    } catch {
      throw fieldError("content", "The content is not valid JSON.");
    }
    if (!Array.isArray(parsed)) throw fieldError("content", "The JSON content must be an array of results.");
    return parsed.map((item: unknown, i) => {
      const o = (item !== null && typeof item === "object" ? item : {}) as Record<string, unknown>;
      return {
        row: i + 1,
        externalId: o.externalId,
        patientId: o.patientId,
        mrn: o.mrn,
        surveyId: o.surveyId,
        answers: o.answers,
      };
    });
  }
  const [header, ...body] = parseCsv(request.content);
  if (header === undefined) throw fieldError("content", "The CSV has no header row.");
  const names = header.map((h) => h.trim());
  if (!names.includes("externalId") || !names.includes("surveyId")) {
    throw fieldError("content", "The CSV header must name externalId, surveyId and patientId or mrn.");
  }
  return body.map((cells, i) => {
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
      row: i + 1,
      externalId: value("externalId"),
      patientId: value("patientId"),
      mrn: value("mrn"),
      surveyId: value("surveyId"),
      answers,
    };
  });
}

/** The result's idempotency key: the same external id always names the same stored result. */
const clientRequestIdOf = (externalId: string) =>
  `batch-${createHash("sha256").update(externalId).digest("base64url").slice(0, 43)}`;

interface ValidRow {
  row: number;
  externalId: string;
  patientId: string;
  surveyId: string;
  answers: Record<string, unknown>;
}

async function validateRow(db: Db, tenantId: string, raw: RawRow): Promise<ValidRow | Rejection> {
  const reject = (field: string, message: string): Rejection => ({ row: raw.row, field, message });
  if (typeof raw.externalId !== "string" || !EXTERNAL_ID.test(raw.externalId)) {
    return reject("externalId", "Must be 1 to 128 of A-Z a-z 0-9 _ . : -");
  }
  if (typeof raw.surveyId !== "string" || raw.surveyId === "")
    return reject("surveyId", "This field is required.");
  if (raw.answers === null || typeof raw.answers !== "object" || Array.isArray(raw.answers)) {
    return reject("answers", "Must be an object of answers keyed by field name.");
  }
  if (Object.keys(raw.answers).length === 0) return reject("answers", "This row has no answers.");
  let patientId: string | undefined;
  if (typeof raw.patientId === "string" && raw.patientId !== "") {
    if (!ObjectIdSchema.safeParse(raw.patientId).success)
      return reject("patientId", "Must be a 24-character hexadecimal id.");
    const [p] = await db
      .select({ id: patients.id })
      .from(patients)
      .where(
        and(eq(patients.tenantId, tenantId), eq(patients.id, raw.patientId), isNull(patients.deletedAt)),
      );
    if (p === undefined) return reject("patientId", "No such patient.");
    patientId = p.id;
  } else if (typeof raw.mrn === "string" && raw.mrn !== "") {
    const [p] = await db
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.tenantId, tenantId), eq(patients.mrn, raw.mrn), isNull(patients.deletedAt)));
    if (p === undefined) return reject("mrn", "No patient has this MRN.");
    patientId = p.id;
  } else {
    return reject("patientId", "Give patientId or mrn.");
  }
  if ((await findReadableSurvey(db, tenantId, raw.surveyId)) === undefined)
    return reject("surveyId", "No such survey.");
  return {
    row: raw.row,
    externalId: raw.externalId,
    patientId,
    surveyId: raw.surveyId,
    answers: raw.answers as Record<string, unknown>,
  };
}

/**
 * Stores an upload row by row. Each accepted row is one transaction holding its submitted result
 * and, when an interface is named, its delivery; a row that fails stores nothing. Uploading the
 * same rows again stores nothing twice: a row's external id fixes its result, and a result that
 * already has a delivery to the interface gets no second one.
 */
export async function batchUpload(
  db: Db,
  tenantId: string,
  userId: string,
  request: BatchUploadRequest,
  ip: string | null = null,
): Promise<BatchUploadResponse> {
  const rows = parseUpload(request);
  if (rows.length === 0) throw fieldError("content", "The upload has no rows.");
  if (rows.length > MAX_BATCH_ROWS) throw fieldError("content", `At most ${MAX_BATCH_ROWS} rows per upload.`);
  let format: DeliveryFormat | undefined;
  if (request.interfaceId !== undefined) {
    const [iface] = await db
      .select({ type: interfaces.type })
      .from(interfaces)
      .where(and(eq(interfaces.tenantId, tenantId), eq(interfaces.id, request.interfaceId)));
    if (iface === undefined) throw fieldError("interfaceId", "This interface does not exist.");
    format = INTERFACE_FORMAT[iface.type];
  }
  const rejected: Rejection[] = [];
  let accepted = 0;
  const seen = new Set<string>();
  for (const raw of rows) {
    const valid = await validateRow(db, tenantId, raw);
    if (!("externalId" in valid)) {
      rejected.push(valid);
      continue;
    }
    if (seen.has(valid.externalId)) {
      rejected.push({
        row: valid.row,
        field: "externalId",
        message: "This external id appears twice in the upload.",
      });
      continue;
    }
    seen.add(valid.externalId);
    try {
      await db.transaction(async (tx) => {
        const saved = await saveResult(
          tx,
          tenantId,
          {
            clientRequestId: clientRequestIdOf(valid.externalId),
            surveyId: valid.surveyId,
            patientId: valid.patientId,
            isSubmitted: true,
            answers: valid.answers,
          },
          userId,
          ip,
        );
        if (request.interfaceId === undefined || format === undefined) return;
        const [existing] = await tx
          .select({ id: deliveries.id })
          .from(deliveries)
          .where(
            and(
              eq(deliveries.tenantId, tenantId),
              eq(deliveries.resultId, saved.id),
              eq(deliveries.interfaceId, request.interfaceId),
            ),
          )
          .limit(1);
        if (existing !== undefined) return;
        await enqueueDelivery(tx, {
          tenantId,
          resultId: saved.id,
          interfaceId: request.interfaceId,
          locationId: null,
          format,
          userId,
          ip,
        });
      });
      accepted++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      rejected.push({ row: valid.row, field: error.errors?.[0]?.field ?? "row", message: error.message });
    }
  }
  return { accepted, rejected };
}

import { and, count, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Hl7Message } from "@medplum/core";
import { objectId } from "@core-care/survey-engine";
import type {
  InboundFacility,
  InboundMessage,
  InboundMessageListQuery,
  InboundOutcome,
  InboundProcessingId,
  InboundSender,
  Patient,
} from "@core-care/schema";
import type { Db, Tx } from "../db/index.js";
import { inboundMessages, patients, tenants } from "../db/schema.js";
import { isUniqueViolation } from "../db/errors.js";
import { AppError } from "../errors.js";
import { audit } from "../services/audit.js";
import { createPatient, getPatient, updatePatient } from "../services/patients.js";
import { buildAck, headerOf, headerOfBytes, type AckContent, type AckHeader } from "./ack.js";
import { patientAfter, readPatient } from "./adt.js";
import { batchAnswer, readBatchFile } from "./batch.js";
import { ADT, ADT_EVENTS, type AdtEvent, type Hl7ErrorCode } from "./codes.js";
import { Hl7ReadError, parseMessage, repetitions } from "./hl7.js";
import { checkSender, DEFAULT_PROCESSING_ID, peerAddress } from "./senders.js";

/** What happened to one message, for the server's log line: never a field's value (PHI). */
export interface InboundOutcomeSummary {
  outcome: InboundOutcome;
  tenantId?: string;
  controlId?: string;
  messageType?: string;
  /** True when the control id had been applied before and its stored ACK was sent again. */
  repeat?: boolean;
  errorField?: string;
  /** The message came in a batch (FHS/BHS). */
  batch?: boolean;
  /** The message could not be handled (the database is down): its error's name and code. */
  failure?: { errName: string; code?: unknown };
}

export interface InboundAnswer {
  ack: string;
  summary: InboundOutcomeSummary;
}

/** The answer to one MLLP frame: its ACK (a batch of ACKs for a batch) and each message's outcome. */
export interface FrameAnswer {
  ack: string;
  summaries: InboundOutcomeSummary[];
}

/** Where a connection comes from: the address its sender must be allowed. */
export interface InboundPeer {
  address: string;
}

/** Character sets MSH-18 may name (HL7 table 0211) that the listener reads. */
const LATIN1 = new Set(["8859/1"]);
const UTF8_OR_ASCII = new Set(["", "UNICODE UTF-8", "ASCII"]);

/** MSH-18 read from the raw bytes: MSH is ASCII, whatever the message's character set. */
function declaredCharset(bytes: Buffer): string {
  const end = bytes.findIndex((b) => b === 0x0d || b === 0x0a);
  const msh = bytes
    .subarray(0, end === -1 ? Math.min(bytes.length, 4096) : end)
    .toString("latin1")
    .replace(/^\s+/, "");
  const separator = msh[3] ?? "|";
  return (
    (msh.split(separator)[17] ?? "")
      .split(msh[4] ?? "^")[0]
      ?.trim()
      .toUpperCase() ?? ""
  );
}

const reject = (header: AckHeader, text: string, location: string, code: Hl7ErrorCode): InboundAnswer => ({
  ack: buildAck(header, { code: "AR", text, error: { location, code } }),
  summary: { outcome: "AR", controlId: header.controlId, errorField: location },
});

/** A practice's inbound set-up, as the listener reads it for each message. */
export interface InboundSetup {
  tenantId: string;
  senders: InboundSender[];
  processingId: InboundProcessingId;
}

/** The practice whose receiving facility (MSH-6) and application (MSH-5) the message is sent to. */
export async function tenantForFacility(
  db: Db,
  application: string[],
  facility: string[],
): Promise<InboundSetup | "ambiguous" | undefined> {
  const rows = await db
    .select({
      id: tenants.id,
      facilities: sql<InboundFacility[]>`${tenants.settings}->'inboundFacilities'`,
      senders: sql<InboundSender[] | null>`${tenants.settings}->'inboundSenders'`,
      processingId: sql<InboundProcessingId | null>`${tenants.settings}->>'inboundProcessingId'`,
    })
    .from(tenants)
    .where(isNotNull(sql`${tenants.settings}->'inboundFacilities'`));
  // HD: namespace id (component 1) or universal id (component 2, an OID), compared without case.
  const names = (hd: string[]) =>
    [hd[0], hd[1]].filter((v) => v !== undefined && v !== "").map((v) => v!.toLowerCase());
  const facilityNames = names(facility);
  const applicationNames = names(application);
  const matches = rows.filter((row) =>
    (Array.isArray(row.facilities) ? row.facilities : []).some(
      (f) =>
        facilityNames.includes(f.facility.toLowerCase()) &&
        (f.application === undefined || applicationNames.includes(f.application.toLowerCase())),
    ),
  );
  if (matches.length > 1) return "ambiguous";
  const [match] = matches;
  if (match === undefined) return undefined;
  return {
    tenantId: match.id,
    senders: Array.isArray(match.senders) ? match.senders : [],
    processingId: match.processingId ?? DEFAULT_PROCESSING_ID,
  };
}

interface Applied {
  content: AckContent;
  action?: "created" | "updated";
  patientMrn?: string;
  patientId?: string;
}

/** A new patient's MRN was taken by a message applied at the same time. */
class MrnTaken extends Error {
  constructor() {
    super("the MRN was created by another message meanwhile");
    this.name = "MrnTaken";
  }
}

async function findByMrn(tx: Tx, tenantId: string, mrn: string): Promise<Patient | undefined> {
  const [row] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.tenantId, tenantId), eq(patients.mrn, mrn), isNull(patients.deletedAt)))
    .limit(1);
  return row === undefined ? undefined : getPatient(tx, tenantId, row.id);
}

/** Creates or updates the patient of an ADT message, in the caller's transaction. */
async function applyAdt(tx: Tx, tenantId: string, message: Hl7Message, event: AdtEvent): Promise<Applied> {
  const read = readPatient(message);
  if (!read.ok) {
    return {
      content: { code: "AE", text: `${read.error.location}: ${read.error.message}`, error: read.error },
    };
  }
  const { mrn } = read.changes;
  const current = await findByMrn(tx, tenantId, mrn);
  const next = patientAfter(current, read.changes);
  if (!next.ok) {
    return {
      content: { code: "AE", text: `${next.error.location}: ${next.error.message}`, error: next.error },
      patientMrn: mrn,
    };
  }
  try {
    // In a savepoint: a refusal by the patients service leaves the log row's transaction usable.
    const saved = await tx.transaction(async (sp) =>
      current === undefined
        ? createPatient(sp, tenantId, next.input)
        : updatePatient(sp, tenantId, current.id, next.input),
    );
    const action = current === undefined ? "created" : "updated";
    await audit(tx, {
      tenantId,
      userId: null,
      action: action === "created" ? "create" : "update",
      entity: "patient",
      entityId: saved.id,
      details: { via: "inbound-hl7", event },
    });
    return { content: { code: "AA", text: "" }, action, patientMrn: mrn, patientId: saved.id };
  } catch (error) {
    // Another message created this MRN since it was looked up: the whole message runs again, as an update.
    if (current === undefined && error instanceof AppError && error.statusCode === 409) throw new MrnTaken();
    if (!(error instanceof AppError)) throw error;
    return {
      content: {
        code: "AE",
        text: `PID: ${error.message}`,
        error: { location: "PID-3", code: error.statusCode === 409 ? "duplicateKey" : "applicationError" },
      },
      patientMrn: mrn,
    };
  }
}

/**
 * Records and applies one message for a tenant, once per (tenant, sending facility, MSH-10): the insert
 * of the log row is the claim. Of several servers (or connections) given the same control id, the one
 * whose insert wins applies it; the others wait for its commit, find the row, and answer its ACK.
 */
async function applyOnce(
  db: Db,
  tenantId: string,
  message: Hl7Message,
  header: AckHeader,
  decide: (tx: Tx) => Promise<Applied>,
): Promise<InboundAnswer> {
  const sendingFacility = header.sendingFacility.join("^");
  const messageType = repetitions(message, "MSH", 9)[0]?.slice(0, 2).join("^") ?? "";
  return db.transaction(async (tx) => {
    const id = objectId();
    const claimed = await tx
      .insert(inboundMessages)
      .values({
        tenantId,
        id,
        sendingFacility,
        controlId: header.controlId,
        messageType,
        outcome: "AR",
        ack: "",
      })
      .onConflictDoNothing()
      .returning({ id: inboundMessages.id });
    if (claimed.length === 0) {
      const [again] = await tx
        .update(inboundMessages)
        .set({ received: sql`${inboundMessages.received} + 1`, lastReceivedAt: new Date() })
        .where(
          and(
            eq(inboundMessages.tenantId, tenantId),
            eq(inboundMessages.sendingFacility, sendingFacility),
            eq(inboundMessages.controlId, header.controlId),
          ),
        )
        .returning({ ack: inboundMessages.ack, outcome: inboundMessages.outcome });
      if (again === undefined) throw new Error("the claimed control id has no row");
      return {
        ack: again.ack,
        summary: { outcome: again.outcome, tenantId, controlId: header.controlId, messageType, repeat: true },
      };
    }
    const applied = await decide(tx);
    const ack = buildAck(header, applied.content);
    await tx
      .update(inboundMessages)
      .set({
        outcome: applied.content.code,
        action: applied.action ?? null,
        patientMrn: applied.patientMrn ?? null,
        patientId: applied.patientId ?? null,
        errorField: applied.content.error?.location ?? null,
        error: applied.content.code === "AA" ? null : applied.content.text,
        ack,
      })
      .where(and(eq(inboundMessages.tenantId, tenantId), eq(inboundMessages.id, id)));
    return {
      ack,
      summary: {
        outcome: applied.content.code,
        tenantId,
        controlId: header.controlId,
        messageType,
        ...(applied.content.error === undefined ? {} : { errorField: applied.content.error.location }),
      },
    };
  });
}

/**
 * A message addressed to a practice that it does not apply (not one of its senders, or another
 * processing id): answered AR and written to the practice's audit log, with no claim on its control id
 * (so a stranger cannot take one its sender will use) and nothing of the message but its header.
 */
async function refuseForPractice(
  db: Db,
  setup: InboundSetup,
  header: AckHeader,
  peer: InboundPeer,
  refusal: { reason: "sender" | "processing-id"; location: string; text: string; code: Hl7ErrorCode },
): Promise<InboundAnswer> {
  await audit(db, {
    tenantId: setup.tenantId,
    userId: null,
    action: "denied",
    entity: "inbound-message",
    ip: peerAddress(peer.address).address || null,
    details: {
      reason: refusal.reason,
      sendingApplication: header.sendingApplication.join("^"),
      sendingFacility: header.sendingFacility.join("^"),
      controlId: header.controlId,
      processingId: header.processingId,
      errorField: refusal.location,
    },
  });
  const answer = reject(header, refusal.text, refusal.location, refusal.code);
  return { ...answer, summary: { ...answer.summary, tenantId: setup.tenantId } };
}

/**
 * Answers one inbound message with its acknowledgment: AA applied (or applied before), AE a field at
 * fault (named in ERR), AR a message refused whole (unreadable, unknown receiving facility, not from
 * one of the practice's senders, another processing id, a type or event not taken). Only an applied AA
 * changes a patient. Every answer echoes the message's control id whenever its MSH can be read.
 */
export async function receiveMessage(db: Db, bytes: Buffer, peer: InboundPeer): Promise<InboundAnswer> {
  const charset = declaredCharset(bytes);
  let text: string;
  if (LATIN1.has(charset)) {
    text = bytes.toString("latin1");
  } else if (UTF8_OR_ASCII.has(charset)) {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return reject(headerOfBytes(bytes), "The message is not valid UTF-8.", "MSH-18", "dataType");
    }
  } else {
    return reject(
      headerOfBytes(bytes),
      "MSH-18 names a character set that is not taken.",
      "MSH-18",
      "dataType",
    );
  }

  let message: Hl7Message;
  try {
    message = parseMessage(text.replace(/^\s+/, ""));
  } catch (error) {
    if (!(error instanceof Hl7ReadError)) throw error;
    return reject(headerOfBytes(bytes), error.message, error.location, error.code);
  }
  const header = headerOf(message);
  if (header.controlId === "")
    return reject(header, "MSH-10 (message control id) is missing.", "MSH-10", "requiredField");
  if (!header.version.startsWith("2."))
    return reject(header, "MSH-12 is not an HL7 v2 version.", "MSH-12", "unsupportedVersion");

  const found = await tenantForFacility(db, header.receivingApplication, header.receivingFacility);
  if (found === undefined || found === "ambiguous") {
    return reject(
      header,
      found === undefined
        ? "The receiving facility (MSH-6) is not known here."
        : "The receiving facility (MSH-6) names more than one practice.",
      "MSH-6",
      "unknownKey",
    );
  }

  const sender = checkSender(found.senders, header.sendingApplication, header.sendingFacility, peer.address);
  if (!sender.ok) {
    return refuseForPractice(db, found, header, peer, {
      reason: "sender",
      location: sender.location,
      text: sender.text,
      code: "unknownKey",
    });
  }
  if (header.processingId.toUpperCase() !== found.processingId) {
    return refuseForPractice(db, found, header, peer, {
      reason: "processing-id",
      location: "MSH-11",
      text: `This practice applies only messages of processing id ${found.processingId} (MSH-11).`,
      code: "unsupportedProcessingId",
    });
  }

  const { tenantId } = found;
  const type = repetitions(message, "MSH", 9)[0] ?? [];
  const event = (type[1] ?? "").trim() as AdtEvent;
  return applyOnce(db, tenantId, message, header, async (tx) => {
    if (type[0] !== ADT) {
      return {
        content: {
          code: "AR",
          text: "Only ADT messages are taken.",
          error: { location: "MSH-9.1", code: "unsupportedMessageType" },
        },
      };
    }
    if (!(ADT_EVENTS as readonly string[]).includes(event)) {
      return {
        content: {
          code: "AR",
          text: `Only ADT events ${ADT_EVENTS.join(", ")} are taken.`,
          error: { location: "MSH-9.2", code: "unsupportedEvent" },
        },
      };
    }
    return applyAdt(tx, tenantId, message, event);
  });
}

/**
 * `receiveMessage`, run again once when two messages created the same new MRN at once: its transaction
 * (log row included) has rolled back, the other patient is committed, and the message becomes an update.
 */
export async function receiveMessageRetrying(
  db: Db,
  bytes: Buffer,
  peer: InboundPeer,
): Promise<InboundAnswer> {
  try {
    return await receiveMessage(db, bytes, peer);
  } catch (error) {
    if (!(error instanceof MrnTaken) && !isUniqueViolation(error)) throw error;
    return receiveMessage(db, bytes, peer);
  }
}

/** The answer when the message could not be handled (the database is down): nothing was kept. */
export function internalErrorAck(bytes: Buffer): string {
  return buildAck(headerOfBytes(bytes), {
    code: "AE",
    text: "The message could not be processed now; send it again.",
    error: { location: "MSH", code: "applicationError" },
  });
}

/** One message, answered AE when it could not be handled (nothing of it kept; its sender sends again). */
async function receiveOne(db: Db, bytes: Buffer, peer: InboundPeer): Promise<InboundAnswer> {
  try {
    return await receiveMessageRetrying(db, bytes, peer);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      ack: internalErrorAck(bytes),
      summary: {
        outcome: "AE",
        controlId: headerOfBytes(bytes).controlId,
        failure: { errName: error instanceof Error ? error.name : typeof error, code },
      },
    };
  }
}

/**
 * Answers one MLLP frame: a message with its ACK; a batch (FHS/BHS) with a batch of ACKs, each of its
 * messages taken on its own, one after the other, in its order.
 */
export async function receiveFrame(db: Db, bytes: Buffer, peer: InboundPeer): Promise<FrameAnswer> {
  const file = readBatchFile(bytes);
  if (file === undefined) {
    const { ack, summary } = await receiveOne(db, bytes, peer);
    return { ack, summaries: [summary] };
  }
  const summaries: InboundOutcomeSummary[] = [];
  const acks: string[][] = [];
  for (const batch of file.batches) {
    const answers: string[] = [];
    for (const message of batch.messages) {
      const { ack, summary } = await receiveOne(db, message, peer);
      answers.push(ack);
      summaries.push({ ...summary, batch: true });
    }
    acks.push(answers);
  }
  return { ack: batchAnswer(file, acks), summaries };
}

function toInboundMessage(row: typeof inboundMessages.$inferSelect): InboundMessage {
  return {
    id: row.id,
    receivedAt: row.receivedAt.toISOString(),
    lastReceivedAt: row.lastReceivedAt.toISOString(),
    received: row.received,
    sendingFacility: row.sendingFacility,
    messageType: row.messageType,
    controlId: row.controlId,
    outcome: row.outcome,
    ...(row.action === null ? {} : { action: row.action }),
    ...(row.patientMrn === null ? {} : { patientMrn: row.patientMrn }),
    ...(row.patientId === null ? {} : { patientId: row.patientId }),
    ...(row.errorField === null ? {} : { errorField: row.errorField }),
    ...(row.error === null ? {} : { error: row.error }),
  };
}

/** The practice's inbound log, newest first. */
export async function listInboundMessages(
  db: Db,
  tenantId: string,
  query: InboundMessageListQuery,
): Promise<{ items: InboundMessage[]; total: number }> {
  const where = and(
    eq(inboundMessages.tenantId, tenantId),
    query.outcome === undefined ? undefined : eq(inboundMessages.outcome, query.outcome),
  );
  const rows = await db
    .select()
    .from(inboundMessages)
    .where(where)
    .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const [total] = await db.select({ n: count() }).from(inboundMessages).where(where);
  return { items: rows.map(toInboundMessage), total: total?.n ?? 0 };
}

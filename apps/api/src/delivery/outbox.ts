import { and, asc, desc, eq, ilike, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { objectId } from "@core-care/survey-engine";
import type {
  Delivery,
  DeliveryFormat,
  DeliveryListItem,
  DeliveryListQuery,
  DeliveryListResponse,
  InterfaceType,
} from "@core-care/schema";
import type { Db, DbOrTx } from "../db/index.js";
import {
  deliveries,
  interfaces,
  locations,
  patients,
  surveyResults,
  surveyVersions,
  tenants,
} from "../db/schema.js";
import { resultPatient, resultSurveyVersion } from "../db/joins.js";
import { conflict, fieldError, notFound } from "../errors.js";
import { audit } from "../services/audit.js";
import { UNSENT } from "../services/delivery-cancel.js";
import { buildCda } from "./cda.js";
import { buildFhirBundle } from "./fhir.js";
import { buildMdmT02, buildOruR01 } from "./hl7-oru.js";
import type { DeliveryDocumentInput, DeliverySurvey } from "./types.js";

type InterfaceRow = typeof interfaces.$inferSelect;
type DeliveryRow = typeof deliveries.$inferSelect;

/** Which interface types each send accepts (docs/api.md: sendhl7, sendCDA, sftpout, sendfhir). */
export const FORMAT_INTERFACE_TYPES: Record<DeliveryFormat, readonly InterfaceType[]> = {
  hl7: ["hl7-mllp"],
  cda: ["cda-mllp", "cda-sftp"],
  sftp: ["sftp"],
  fhir: ["fhir-http"],
};

/** The send a batch-uploaded row makes on an interface of this type. */
export const INTERFACE_FORMAT: Record<InterfaceType, DeliveryFormat> = {
  "hl7-mllp": "hl7",
  "cda-mllp": "cda",
  "cda-sftp": "cda",
  sftp: "sftp",
  "fhir-http": "fhir",
};

/** MSH-3 when the interface names no sending application. */
export const DEFAULT_SENDING_APPLICATION = "CORECARE";

/**
 * The message control id of a delivery: its 96-bit id in base 36, at most 19 characters, because
 * HL7 v2.5.1 limits MSH-10 to 20. Unique per delivery, and the same on every retry of it.
 */
export function controlIdOf(deliveryId: string): string {
  return BigInt(`0x${deliveryId}`).toString(36).toUpperCase();
}

/** Everything the builders need about one result, read within the caller's transaction. */
export async function loadDocumentInput(
  db: DbOrTx,
  tenantId: string,
  resultId: string,
  iface: InterfaceRow,
  locationId: string | null,
  controlId: string,
  createdAt: Date,
): Promise<DeliveryDocumentInput> {
  const [row] = await db
    .select({ result: surveyResults, tenant: tenants, patient: patients, survey: surveyVersions.definition })
    .from(surveyResults)
    .innerJoin(tenants, eq(tenants.id, surveyResults.tenantId))
    .innerJoin(patients, resultPatient)
    .innerJoin(surveyVersions, resultSurveyVersion)
    .where(
      and(
        eq(surveyResults.tenantId, tenantId),
        eq(surveyResults.id, resultId),
        isNull(surveyResults.deletedAt),
      ),
    );
  if (row === undefined) throw notFound("Survey result");
  const { result, tenant, patient, survey } = row;
  if (!result.isSubmitted) throw conflict("Only a submitted survey result can be sent.");

  let location: DeliveryDocumentInput["location"];
  if (locationId !== null) {
    const [loc] = await db
      .select({ id: locations.id, name: locations.name, code: locations.code })
      .from(locations)
      .where(and(eq(locations.tenantId, tenantId), eq(locations.id, locationId)));
    if (loc === undefined) throw fieldError("locationId", "This location does not exist.");
    location = loc;
  }
  const definition: DeliverySurvey = {
    id: result.surveyId,
    title: survey.title,
    version: result.surveyVersion,
    pages: survey.pages,
  };
  return {
    tenant: {
      id: tenant.id,
      name: tenant.name,
      ...(tenant.settings.contact?.address ? { address: tenant.settings.contact.address } : {}),
      ...(tenant.settings.contact?.phone ? { phone: tenant.settings.contact.phone } : {}),
    },
    patient: {
      id: patient.id,
      mrn: patient.mrn,
      firstName: patient.firstName,
      lastName: patient.lastName,
      dob: patient.dob,
      sex: patient.sex,
      ...(patient.email ? { email: patient.email } : {}),
      ...(patient.phone ? { phone: patient.phone } : {}),
      ...(patient.address ? { address: patient.address } : {}),
      ...(patient.race ? { race: patient.race } : {}),
      ...(patient.ethnicity ? { ethnicity: patient.ethnicity } : {}),
    },
    survey: definition,
    result: {
      id: result.id,
      answers: result.answers,
      submittedAt: (result.submittedAt ?? result.updatedAt).toISOString(),
    },
    ...(location ? { location } : {}),
    parties: {
      sendingApplication: iface.sendingApplication || DEFAULT_SENDING_APPLICATION,
      sendingFacility: iface.sendingFacility,
      receivingApplication: iface.receivingApplication,
      receivingFacility: iface.receivingFacility,
      ...(iface.assigningAuthority ? { assigningAuthority: iface.assigningAuthority } : {}),
      ...(iface.assigningAuthorityOid ? { assigningAuthorityOid: iface.assigningAuthorityOid } : {}),
    },
    controlId,
    createdAt: createdAt.toISOString(),
    processingId: iface.processingId,
  };
}

/** The bytes a delivery transmits, fixed when it is queued so every retry sends the same. */
export function renderPayload(
  format: DeliveryFormat,
  type: InterfaceType,
  input: DeliveryDocumentInput,
): string {
  switch (format) {
    case "hl7":
    case "sftp":
      return buildOruR01(input);
    case "cda":
      return type === "cda-mllp" ? buildMdmT02(input, buildCda(input)) : buildCda(input);
    case "fhir":
      return JSON.stringify(buildFhirBundle(input));
  }
}

export interface EnqueueRequest {
  tenantId: string;
  resultId: string;
  interfaceId: string;
  locationId: string | null;
  format: DeliveryFormat;
  userId: string | null;
  ip?: string | null;
  now?: Date;
  /**
   * The queue position to take instead of the interface's next one: a resend of a failed delivery
   * takes the place of the delivery it replaces.
   */
  queueSeq?: number;
}

/**
 * Queues one delivery (transactional outbox): the row, with its rendered payload and control id,
 * and the audit event are written in the caller's transaction; the worker sends it later.
 */
export async function enqueueDelivery(tx: DbOrTx, request: EnqueueRequest): Promise<string> {
  const { tenantId, format } = request;
  const now = request.now ?? new Date();
  // Taking the next queue position locks the interface row until this transaction ends, so the
  // interface's deliveries are committed, and seen by the worker, in the order of their positions.
  const [iface] = await tx
    .update(interfaces)
    .set({ queueTail: sql`${interfaces.queueTail} + 1` })
    .where(and(eq(interfaces.tenantId, tenantId), eq(interfaces.id, request.interfaceId)))
    .returning();
  if (iface === undefined) throw fieldError("interfaceId", "This interface does not exist.");
  if (!FORMAT_INTERFACE_TYPES[format].includes(iface.type)) {
    throw fieldError(
      "interfaceId",
      `This interface (${iface.type}) cannot take a ${format.toUpperCase()} send.`,
    );
  }
  const id = objectId();
  const controlId = controlIdOf(id);
  const input = await loadDocumentInput(
    tx,
    tenantId,
    request.resultId,
    iface,
    request.locationId,
    controlId,
    now,
  );
  await tx.insert(deliveries).values({
    tenantId,
    id,
    resultId: request.resultId,
    interfaceId: iface.id,
    locationId: request.locationId,
    format,
    status: "pending",
    attempts: 0,
    nextAttemptAt: now,
    controlId,
    queueSeq: request.queueSeq ?? iface.queueTail,
    payload: renderPayload(format, iface.type, input),
    createdBy: request.userId,
    createdAt: now,
    updatedAt: now,
  });
  await audit(tx, {
    tenantId,
    userId: request.userId,
    action: "send",
    entity: "delivery",
    entityId: id,
    ip: request.ip ?? null,
  });
  return id;
}

/** A delivery as the API answers it: never its payload. */
export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    resultId: row.resultId,
    interfaceId: row.interfaceId,
    locationId: row.locationId,
    format: row.format,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt:
      row.status === "pending" || row.status === "sending"
        ? (row.nextAttemptAt?.toISOString() ?? null)
        : null,
    lastError: row.lastError,
    ack: row.ack,
    controlId: row.controlId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}

/** The deliveries of one result, newest first; 404 when the result is not the tenant's. */
export async function listDeliveries(db: Db, tenantId: string, resultId: string): Promise<Delivery[]> {
  const [result] = await db
    .select({ id: surveyResults.id })
    .from(surveyResults)
    .where(
      and(
        eq(surveyResults.tenantId, tenantId),
        eq(surveyResults.id, resultId),
        isNull(surveyResults.deletedAt),
      ),
    );
  if (result === undefined) throw notFound("Survey result");
  const rows = await db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.resultId, resultId)))
    .orderBy(desc(deliveries.createdAt), desc(deliveries.id));
  return rows.map(toDelivery);
}

/**
 * Sends a result again as a new delivery with a new control id, to the same interface and location
 * and in the same format, rebuilt from the result as it is now. Resending a failed delivery replaces
 * it: the failed one is marked skipped and the new one takes its place at the head of the queue, so
 * the interface's order is kept; any other is queued at the back.
 */
export async function resendDelivery(
  db: Db,
  tenantId: string,
  deliveryId: string,
  userId: string | null,
  ip: string | null = null,
): Promise<string> {
  return db.transaction(async (tx) => {
    const [original] = await tx
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.id, deliveryId)))
      .for("update");
    if (original === undefined) throw notFound("Delivery");
    const replacesFailed = original.status === "failed";
    if (replacesFailed) {
      await tx
        .update(deliveries)
        .set({ status: "skipped", nextAttemptAt: null, updatedAt: new Date() })
        .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.id, deliveryId)));
    }
    return enqueueDelivery(tx, {
      tenantId,
      resultId: original.resultId,
      interfaceId: original.interfaceId,
      locationId: original.locationId,
      format: original.format,
      userId,
      ip,
      ...(replacesFailed ? { queueSeq: original.queueSeq } : {}),
    });
  });
}

/**
 * Skips a delivery not yet sent (queued, being retried, or failed): it stays in the log as skipped and
 * is never sent, and its interface's queue moves on to the next delivery. A delivered, skipped or
 * cancelled delivery cannot be skipped (409). One being sent at this moment is skipped too; if that
 * attempt is acknowledged, the worker records it as delivered.
 */
export async function skipDelivery(
  db: Db,
  tenantId: string,
  deliveryId: string,
  userId: string | null,
  ip: string | null = null,
): Promise<Delivery> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.id, deliveryId)))
      .for("update");
    if (row === undefined) throw notFound("Delivery");
    if (!(UNSENT as readonly string[]).includes(row.status)) {
      throw conflict("Only a delivery not yet sent can be skipped.");
    }
    const [skipped] = await tx
      .update(deliveries)
      .set({
        status: "skipped",
        nextAttemptAt: null,
        lastError: row.status === "failed" ? row.lastError : "Skipped by an admin before it was sent.",
        updatedAt: new Date(),
      })
      .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.id, deliveryId)))
      .returning();
    await audit(tx, {
      tenantId,
      userId,
      action: "update",
      entity: "delivery:skipped",
      entityId: deliveryId,
      ip,
    });
    return toDelivery(skipped!);
  });
}

/** Every delivery of the tenant, newest first, one keyset page (by id) at a time. */
export async function listTenantDeliveries(
  db: Db,
  tenantId: string,
  query: DeliveryListQuery,
): Promise<DeliveryListResponse> {
  const conditions: SQL[] = [eq(deliveries.tenantId, tenantId)];
  if (query.status !== undefined) conditions.push(eq(deliveries.status, query.status));
  if (query.interfaceId !== undefined) conditions.push(eq(deliveries.interfaceId, query.interfaceId));
  if (query.before !== undefined) conditions.push(lt(deliveries.id, query.before));
  if (query.q !== undefined) {
    const prefix = `${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(
        eq(deliveries.controlId, query.q.toUpperCase()),
        eq(patients.mrn, query.q),
        ilike(patients.lastName, prefix),
        ilike(patients.firstName, prefix),
      )!,
    );
  }
  const rows = await db
    .select({
      delivery: deliveries,
      interfaceName: interfaces.name,
      interfaceType: interfaces.type,
      patientId: patients.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
    })
    .from(deliveries)
    .leftJoin(
      interfaces,
      and(eq(interfaces.tenantId, deliveries.tenantId), eq(interfaces.id, deliveries.interfaceId)),
    )
    .leftJoin(
      surveyResults,
      and(eq(surveyResults.tenantId, deliveries.tenantId), eq(surveyResults.id, deliveries.resultId)),
    )
    .leftJoin(patients, resultPatient)
    .where(and(...conditions))
    .orderBy(desc(deliveries.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const items: DeliveryListItem[] = page.map((r) => ({
    ...toDelivery(r.delivery),
    interfaceName: r.interfaceName,
    interfaceType: r.interfaceType,
    patientId: r.patientId,
    patientName: r.patientId === null ? null : `${r.lastName ?? ""}, ${r.firstName ?? ""}`,
  }));
  return {
    items,
    nextBefore: rows.length > query.limit ? (page[page.length - 1]?.delivery.id ?? null) : null,
  };
}

/** How many of the tenant's deliveries have failed and wait for an admin (the navigation's count). */
export async function countFailedDeliveries(db: Db, tenantId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(deliveries)
    .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.status, "failed")));
  return row?.n ?? 0;
}

/**
 * The tenant's stalled queues: each interface whose earliest failed delivery (which holds every later one)
 * failed more than `minutes` ago, oldest first.
 */
export async function stalledQueues(
  db: Db,
  tenantId: string,
  minutes: number,
  now = new Date(),
): Promise<{ interfaceId: string; interfaceName: string | null; deliveryId: string; failedAt: string }[]> {
  const rows = await db
    .selectDistinctOn([deliveries.interfaceId], {
      interfaceId: deliveries.interfaceId,
      interfaceName: interfaces.name,
      deliveryId: deliveries.id,
      failedAt: deliveries.updatedAt,
    })
    .from(deliveries)
    .leftJoin(
      interfaces,
      and(eq(interfaces.tenantId, deliveries.tenantId), eq(interfaces.id, deliveries.interfaceId)),
    )
    .where(
      and(
        eq(deliveries.tenantId, tenantId),
        eq(deliveries.status, "failed"),
        lte(deliveries.updatedAt, new Date(now.getTime() - minutes * 60_000)),
      ),
    )
    .orderBy(deliveries.interfaceId, asc(deliveries.queueSeq), asc(deliveries.id));
  return rows
    .map((r) => ({ ...r, failedAt: r.failedAt.toISOString() }))
    .sort((a, b) => a.failedAt.localeCompare(b.failedAt));
}

/** The exact bytes a delivery sends, with the media type and file name to show or download them as. */
export async function deliveryMessage(
  db: Db,
  tenantId: string,
  deliveryId: string,
): Promise<{ body: string; contentType: string; fileName: string }> {
  const [row] = await db
    .select({ payload: deliveries.payload, format: deliveries.format, controlId: deliveries.controlId })
    .from(deliveries)
    .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.id, deliveryId)));
  if (row === undefined) throw notFound("Delivery");
  const body = row.payload ?? "";
  // An MLLP CDA send travels as an HL7 MDM^T02; only the SFTP one is the bare XML document.
  const kind =
    row.format === "fhir" ? "json" : row.format === "cda" && !body.startsWith("MSH") ? "xml" : "hl7";
  const contentType =
    kind === "json" ? "application/fhir+json" : kind === "xml" ? "application/xml" : "text/plain";
  return { body, contentType: `${contentType}; charset=utf-8`, fileName: `${row.controlId}.${kind}` };
}

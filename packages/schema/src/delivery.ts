import { z } from "zod";
import { ObjectIdSchema, TimestampSchema } from "./common.js";
import { InterfaceTypeSchema } from "./interface.js";

export const DELIVERY_FORMATS = ["hl7", "cda", "fhir", "sftp"] as const;
export const DeliveryFormatSchema = z.enum(DELIVERY_FORMATS);
export type DeliveryFormat = z.infer<typeof DeliveryFormatSchema>;

/**
 * `pending` is queued (waiting for its turn or its next attempt), `failed` is final and holds its
 * interface's queue until an admin skips or resends it, `skipped` is an admin's decision to move on,
 * `cancelled` is a delivery not yet sent when its result (or the result's patient) was removed: it is
 * never sent, and its `lastError` says why.
 */
export const DELIVERY_STATUSES = [
  "pending",
  "sending",
  "delivered",
  "failed",
  "skipped",
  "cancelled",
] as const;
export const DeliveryStatusSchema = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;

/** One send of a survey result to an interface, with its attempts (transactional outbox). */
export const DeliverySchema = z.object({
  id: ObjectIdSchema,
  resultId: ObjectIdSchema,
  interfaceId: ObjectIdSchema,
  locationId: ObjectIdSchema.nullable(),
  format: DeliveryFormatSchema,
  status: DeliveryStatusSchema,
  attempts: z.number().int().min(0),
  nextAttemptAt: TimestampSchema.nullable(),
  lastError: z.string().nullable(),
  ack: z.string().nullable(),
  controlId: z.string(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  deliveredAt: TimestampSchema.nullable(),
});
export type Delivery = z.infer<typeof DeliverySchema>;

/** Query of GET /api/deliveries: newest first, keyset paging by id (`before` is the last id seen). */
export const DeliveryListQuerySchema = z.object({
  status: DeliveryStatusSchema.optional(),
  interfaceId: ObjectIdSchema.optional(),
  /** A control id (exact), or the start of a patient's last or first name, or their MRN (exact). */
  q: z.string().trim().min(1).max(100).optional(),
  before: ObjectIdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type DeliveryListQuery = z.infer<typeof DeliveryListQuerySchema>;

/** A delivery on the Deliveries screen: with its interface and its patient's name. */
export const DeliveryListItemSchema = DeliverySchema.extend({
  interfaceName: z.string().nullable(),
  interfaceType: InterfaceTypeSchema.nullable(),
  patientId: ObjectIdSchema.nullable(),
  patientName: z.string().nullable(),
});
export type DeliveryListItem = z.infer<typeof DeliveryListItemSchema>;

/** Answer of GET /api/deliveries: one page, and the `before` of the next one (null on the last). */
export const DeliveryListResponseSchema = z.object({
  items: z.array(DeliveryListItemSchema),
  nextBefore: ObjectIdSchema.nullable(),
});
export type DeliveryListResponse = z.infer<typeof DeliveryListResponseSchema>;

/** Answer of GET /api/deliveries/counts: the failed deliveries waiting for an admin. */
export const DeliveryCountsSchema = z.object({
  failed: z.number().int().min(0),
  /**
   * Stalled queues: interfaces whose earliest failed delivery has held them longer than the server's
   * DELIVERY_STALL_MINUTES (default 15), oldest first.
   */
  stalled: z.array(
    z.object({
      interfaceId: ObjectIdSchema,
      interfaceName: z.string().nullable(),
      deliveryId: ObjectIdSchema,
      failedAt: TimestampSchema,
    }),
  ),
  stallMinutes: z.number().int().min(1),
});
export type DeliveryCounts = z.infer<typeof DeliveryCountsSchema>;

/** Body of POST /api/surveyresults/{id}/sendhl7, /sendCDA, /sftpout and /sendfhir. */
export const SendResultRequestSchema = z.object({
  interfaceId: ObjectIdSchema,
  locationId: z.preprocess((v) => (v === "" || v === null ? undefined : v), ObjectIdSchema.optional()),
});
export type SendResultRequest = z.infer<typeof SendResultRequestSchema>;

/** 202 answer of a send or resend. */
export const DeliveryAcceptedSchema = z.object({ deliveryId: ObjectIdSchema });
export type DeliveryAccepted = z.infer<typeof DeliveryAcceptedSchema>;

/** Body of POST /api/surveyresults/batchUpload. */
export const BatchUploadRequestSchema = z.object({
  format: z.enum(["csv", "json"]),
  content: z.string().min(1, "This field is required.").max(5_000_000),
  interfaceId: z.preprocess((v) => (v === "" || v === null ? undefined : v), ObjectIdSchema.optional()),
});
export type BatchUploadRequest = z.infer<typeof BatchUploadRequestSchema>;

/** Query of POST /api/surveyresults/batchUpload/stream (the body is the CSV or NDJSON itself). */
export const BatchUploadStreamQuerySchema = z.object({
  interfaceId: z.preprocess((v) => (v === "" || v === null ? undefined : v), ObjectIdSchema.optional()),
});

/** Answer of POST /api/surveyresults/batchUpload. */
export const BatchUploadResponseSchema = z.object({
  /** Rows stored or found stored: created + updated + unchanged. */
  accepted: z.number().int().min(0),
  /** Rows refused, each with its reason (the first 1,000; `rejectedCount` counts them all). */
  rejected: z.array(z.object({ row: z.number().int(), field: z.string(), message: z.string() })),
  created: z.number().int().min(0),
  updated: z.number().int().min(0),
  unchanged: z.number().int().min(0),
  rejectedCount: z.number().int().min(0),
});
export type BatchUploadResponse = z.infer<typeof BatchUploadResponseSchema>;

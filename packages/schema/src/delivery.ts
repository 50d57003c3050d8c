import { z } from "zod";
import { ObjectIdSchema, TimestampSchema } from "./common.js";

export const DELIVERY_FORMATS = ["hl7", "cda", "fhir", "sftp"] as const;
export const DeliveryFormatSchema = z.enum(DELIVERY_FORMATS);
export type DeliveryFormat = z.infer<typeof DeliveryFormatSchema>;

export const DELIVERY_STATUSES = ["pending", "sending", "delivered", "failed"] as const;
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

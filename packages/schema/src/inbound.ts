import { z } from "zod";
import { TimestampSchema } from "./common.js";
import { InboundFacilitiesSchema, InboundProcessingIdSchema, InboundSendersSchema } from "./tenant.js";

/** HL7 v2 acknowledgment codes an inbound message is answered with (HL7 table 0008). */
export const INBOUND_OUTCOMES = ["AA", "AE", "AR"] as const;
export const InboundOutcomeSchema = z.enum(INBOUND_OUTCOMES);
export type InboundOutcome = z.infer<typeof InboundOutcomeSchema>;

/**
 * An item of GET /api/inbound-messages: one HL7 message the practice received (by sending facility and
 * MSH-10 control id), how it was answered and which patient it touched. No message body: it holds PHI.
 */
export const InboundMessageSchema = z.object({
  id: z.string(),
  receivedAt: TimestampSchema,
  /** The last time the same control id arrived again (answered with the same ACK, applied once). */
  lastReceivedAt: TimestampSchema,
  /** How many times this control id arrived. */
  received: z.number().int().min(1),
  sendingFacility: z.string(),
  messageType: z.string(),
  controlId: z.string(),
  outcome: InboundOutcomeSchema,
  /** `created` or `updated` for an applied ADT message, otherwise absent. */
  action: z.enum(["created", "updated"]).optional(),
  patientMrn: z.string().optional(),
  patientId: z.string().optional(),
  /** The HL7 field at fault (`PID-7`) of an AE or AR. */
  errorField: z.string().optional(),
  error: z.string().optional(),
});
export type InboundMessage = z.infer<typeof InboundMessageSchema>;

/** Query of GET /api/inbound-messages: newest first, one page of at most `limit`. */
export const InboundMessageListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  outcome: z.preprocess((v) => (v === "" ? undefined : v), InboundOutcomeSchema.optional()),
});
export type InboundMessageListQuery = z.infer<typeof InboundMessageListQuerySchema>;

/** Body and answer of GET/PUT /api/inbound-facilities: the practice's receiving facilities. */
export const InboundFacilitiesBodySchema = z.object({ facilities: InboundFacilitiesSchema });
export type InboundFacilitiesBody = z.infer<typeof InboundFacilitiesBodySchema>;

/**
 * Body and answer of GET/PUT /api/inbound-senders: the senders whose messages the practice applies and
 * the processing id (MSH-11) it applies. With no sender, every message is answered AR.
 */
export const InboundSendersBodySchema = z.object({
  senders: InboundSendersSchema,
  processingId: InboundProcessingIdSchema.default("P"),
});
export type InboundSendersBody = z.infer<typeof InboundSendersBodySchema>;

import { z } from "zod";
import { ObjectIdSchema, TimestampSchema } from "./common.js";

/** A safety alert raised by a submitted result (e.g. a positive PHQ-9 item 9), open until acknowledged. */
export const SafetyAlertSchema = z.object({
  id: ObjectIdSchema,
  resultId: ObjectIdSchema,
  patientId: ObjectIdSchema,
  kind: z.string(),
  message: z.string(),
  createdAt: TimestampSchema,
  acknowledgedAt: TimestampSchema.nullable(),
  acknowledgedBy: ObjectIdSchema.nullable(),
});
export type SafetyAlert = z.infer<typeof SafetyAlertSchema>;

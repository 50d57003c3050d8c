import { z } from "zod";
import { PasswordSchema } from "./auth.js";
import { DocumentIdSchema, ObjectIdSchema } from "./common.js";
import { PatientLanguageSchema } from "./patient.js";
import { TotpCodeSchema } from "./totp.js";

/** Body of POST /api/tablet/handovers: the patient and the survey the tablet is handed over for. */
export const HandoverRequestSchema = z.object({ patientId: ObjectIdSchema, surveyId: DocumentIdSchema });
export type HandoverRequest = z.infer<typeof HandoverRequestSchema>;

/**
 * The tablet patient credential's hand-over (GET /api/tablet/handover): what it is bound to, the
 * patient's first name (shown on every page, so that a tablet handed to the wrong patient is noticed)
 * and preferred language, the patient's condition globals (sex, age, practice, location) and the key
 * that encrypts the tablet's stored copy (AES-256-GCM, base64url), valid only while the hand-over lasts.
 */
export const TabletHandoverSchema = z.object({
  handoverId: ObjectIdSchema,
  patientId: ObjectIdSchema,
  surveyId: DocumentIdSchema,
  clientRequestId: ObjectIdSchema,
  resultId: ObjectIdSchema.nullable(),
  firstName: z.string(),
  language: PatientLanguageSchema,
  dataKey: z.string(),
  globals: z.object({
    sex: z.string().optional(),
    age: z.number().optional(),
    tenant: z
      .object({
        id: z.string(),
        location: z.object({ id: z.string() }).optional(),
        settings: z.record(z.string(), z.unknown()).optional(),
      })
      .optional(),
  }),
  idleTimeoutSeconds: z.number().int().positive(),
});
export type TabletHandover = z.infer<typeof TabletHandoverSchema>;

/**
 * Body of POST /api/tablet/handover/staff: the password of the staff member who handed the tablet over,
 * and a code of their second factor when they have one.
 */
export const StaffReturnRequestSchema = z.object({
  password: PasswordSchema,
  code: TotpCodeSchema.optional(),
});
export type StaffReturnRequest = z.infer<typeof StaffReturnRequestSchema>;

/** Query of DELETE /api/tablet/handover: why the tablet ends it (the idle timeout, or a sign-out). */
export const HandoverEndQuerySchema = z.object({ reason: z.enum(["idle", "logout"]).default("logout") });

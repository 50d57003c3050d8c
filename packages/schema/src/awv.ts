import { z } from "zod";
import { EmailSchema, FlagSchema, ObjectIdSchema, TenantIdSchema, TimestampSchema } from "./common.js";
import { AnswersSchema } from "./survey-result.js";

/** Body of POST /api/auth/sendAWVEmail (SPEC 7). */
export const SendAwvEmailRequestSchema = z.object({
  ptEmail: EmailSchema,
  tenant: TenantIdSchema,
  ptId: ObjectIdSchema,
  ptS: FlagSchema.default(false),
  ptPY: FlagSchema.default(false),
  pt100: FlagSchema.default(false),
});
export type SendAwvEmailRequest = z.infer<typeof SendAwvEmailRequestSchema>;

/** Body of POST /api/auth/teleawv (SPEC 7), with the invitation token from the link's fragment. */
export const TeleAwvSubmitRequestSchema = z.object({
  patientId: ObjectIdSchema,
  ptEmail: EmailSchema,
  tenant: TenantIdSchema,
  ptS: FlagSchema.default(false),
  ptPY: FlagSchema.default(false),
  pt100: FlagSchema.default(false),
  token: z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, "Must be the invitation token of the e-mailed link."),
  answers: AnswersSchema,
});
export type TeleAwvSubmitRequest = z.infer<typeof TeleAwvSubmitRequestSchema>;

/** A Tele-AWV invitation as staff see it (the token itself is only ever in the e-mail). */
export const AwvInvitationSchema = z.object({
  id: ObjectIdSchema,
  patientId: ObjectIdSchema,
  ptEmail: z.string(),
  ptS: z.boolean(),
  ptPY: z.boolean(),
  pt100: z.boolean(),
  createdAt: TimestampSchema,
  expiresAt: TimestampSchema,
  usedAt: TimestampSchema.nullable(),
});
export type AwvInvitation = z.infer<typeof AwvInvitationSchema>;

export const OkResponseSchema = z.object({ ok: z.literal(true) });

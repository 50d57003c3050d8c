import { z } from "zod";
import { EmailSchema, FlagSchema, ObjectIdSchema, TenantIdSchema, TimestampSchema } from "./common.js";
import { PatientLanguageSchema } from "./patient.js";
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

/** The patient's progress on a Tele-AWV link: answers so far, the step on screen and the language read. */
export const TeleAwvDraftSchema = z.object({
  answers: AnswersSchema,
  pageIndex: z.number().int().min(0).max(100),
  language: PatientLanguageSchema,
});
export type TeleAwvDraft = z.infer<typeof TeleAwvDraftSchema>;

/** Answer of PUT /api/auth/teleawv/draft: when the server stored it. */
export const TeleAwvDraftSavedSchema = z.object({ savedAt: TimestampSchema });

/**
 * Answer of GET /api/auth/teleawv/link: what state the link is in, the practice that sent it, the language
 * of its e-mail and, for an open link, the progress saved so far.
 */
export const TeleAwvLinkSchema = z.object({
  state: z.enum(["open", "used", "expired"]),
  practice: z.object({ name: z.string() }),
  language: PatientLanguageSchema,
  expiresAt: TimestampSchema,
  draft: TeleAwvDraftSchema.extend({ savedAt: TimestampSchema }).nullable(),
});
export type TeleAwvLink = z.infer<typeof TeleAwvLinkSchema>;

/**
 * Answer of POST /api/auth/teleawv: the stored result, and whether its answers opened a safety alert,
 * so that the completion page can show crisis guidance.
 */
export const TeleAwvSubmitResponseSchema = z.object({ id: z.string(), safetyAlert: z.boolean() });
export type TeleAwvSubmitResponse = z.infer<typeof TeleAwvSubmitResponseSchema>;

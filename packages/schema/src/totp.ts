import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "./auth.js";
import { MeSchema } from "./user.js";

/**
 * A code of the second factor: the 6 digits of the authenticator app (RFC 6238), or one of the recovery
 * codes (`XXXX-XXXX-XXXX`; case, spaces and hyphens do not matter).
 */
export const TotpCodeSchema = z
  .string()
  .trim()
  .min(1, "This field is required.")
  .max(32, "Must be a 6-digit code or a recovery code.");

/** Body of the routes that take a second-factor code. */
export const TotpCodeRequestSchema = z.object({ code: TotpCodeSchema });
export type TotpCodeRequest = z.infer<typeof TotpCodeRequestSchema>;

/**
 * Answer (202) of POST /api/auth/sessions when the password was right but sign-in needs a second step:
 * `totp` a code of the user's authenticator, `enrol` setting one up first (the practice requires it of
 * its administrators). Until then the session reaches nothing but these steps.
 */
export const SecondFactorNeededSchema = z.object({ secondFactor: z.enum(["totp", "enrol"]) });
export type SecondFactorNeeded = z.infer<typeof SecondFactorNeededSchema>;

/** A second factor being set up: the base32 secret and the `otpauth://` URI for authenticator apps. */
export const TotpEnrolmentSchema = z.object({ secret: z.string(), uri: z.string() });
export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

/** GET /api/users/me/totp: whether the second factor is on, and whether a practice requires it. */
export const TotpStatusSchema = z.object({ enabled: z.boolean(), required: z.boolean() });
export type TotpStatus = z.infer<typeof TotpStatusSchema>;

/** The one-time recovery codes, shown once when the second factor is turned on. */
export const RecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/** Answer of the enrolment that completes a sign-in: the recovery codes and the signed-in user. */
export const SignInEnrolledSchema = RecoveryCodesSchema.extend({ me: MeSchema });
export type SignInEnrolled = z.infer<typeof SignInEnrolledSchema>;

/** Body of DELETE /api/users/me/totp: the password or a current code proves it is the user. */
export const TotpOffRequestSchema = z
  .object({
    password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
    code: TotpCodeSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.password ?? "") === "" && v.code === undefined) {
      ctx.addIssue({ code: "custom", path: ["password"], message: "Enter your password or a code." });
    }
  });
export type TotpOffRequest = z.infer<typeof TotpOffRequestSchema>;

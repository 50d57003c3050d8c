import { z } from "zod";
import { EmailSchema } from "./common.js";

/** Longest accepted password; passwords are never truncated, longer ones are refused. */
export const PASSWORD_MAX_LENGTH = 1024;
/** Shortest new password (NIST SP 800-63B 3.1.1.2 for single-factor passwords). */
export const PASSWORD_MIN_LENGTH = 15;

/** A password being presented (any characters). */
export const PasswordSchema = z.string().min(1, "This field is required.").max(PASSWORD_MAX_LENGTH);

/** A password being chosen; the server also checks it against its common-password list. */
export const NewPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH);

/** Body of POST /api/auth/sessions. */
export const LoginRequestSchema = z.object({ email: EmailSchema, password: PasswordSchema });
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** Body of POST /api/auth/passwords: `oldPassword` is the current password or a reset token. */
export const ChangePasswordRequestSchema = z
  .object({
    email: EmailSchema,
    oldPassword: PasswordSchema,
    password: NewPasswordSchema,
    confirmPassword: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.confirmPassword) {
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "Passwords do not match." });
    }
  });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

/** Params of DELETE /api/auth/passwords/{email}. */
export const PasswordResetParamsSchema = z.object({ email: EmailSchema });

/** GET /api/config: what the web app needs before sign-in (SPEC 9 constants). */
export const ClientConfigSchema = z.object({
  idleTimeoutSeconds: z.number().int().positive(),
  keepaliveIntervalSeconds: z.number().int().positive(),
  keepaliveMinDelaySeconds: z.number().int().positive(),
  defaultUrl: z.string(),
  environment: z.enum(["development", "test", "production"]),
});
export type ClientConfig = z.infer<typeof ClientConfigSchema>;

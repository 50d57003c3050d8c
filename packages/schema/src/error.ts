import { z } from "zod";

/** One field problem of a 400 answer. */
export const FieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

/**
 * The spec's error wire shape (SPEC 3, 8): `{ responseStatus: { status, message, errorCode?, errors? } }`.
 * A 409 of a versioned save carries the server's current version as the numeric `errorCode`.
 */
export const ErrorResponseSchema = z.object({
  responseStatus: z.object({
    status: z.number().int(),
    message: z.string(),
    errorCode: z.union([z.number(), z.string()]).optional(),
    errors: z.array(FieldErrorSchema).optional(),
  }),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

import { z } from "zod";

/** The spec's error wire shape (SPEC 3): `{ responseStatus: { status, message, errors? } }`. */
export const ErrorResponseSchema = z.object({
  responseStatus: z.object({
    status: z.union([z.number(), z.string()]),
    message: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  }),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

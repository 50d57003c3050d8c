import { z } from "zod";
import { NameSchema, ObjectIdSchema } from "./common.js";

/** Body of POST /api/locations and PUT /api/locations/{id}. */
export const LocationInputSchema = z.object({
  name: NameSchema,
  code: z.string().trim().min(1, "This field is required.").max(64),
});
export type LocationInput = z.infer<typeof LocationInputSchema>;

/** A location of a tenant (a clinic site). */
export const LocationSchema = LocationInputSchema.extend({ id: ObjectIdSchema });
export type Location = z.infer<typeof LocationSchema>;

import type { FastifySerializerCompiler } from "fastify";
import { ResponseSerializationError } from "fastify-type-provider-zod";
import type { z } from "zod";

/**
 * Serialises responses by parsing them with their zod schema, which strips every key the schema does not
 * name (no secret or internal column can leak). Parsing rather than zod's `encode` lets the shared
 * schemas keep their input normalisation (preprocess, trim), which `encode` refuses.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> =
  ({ schema, method, url }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };

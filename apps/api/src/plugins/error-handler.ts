import fp from "fastify-plugin";
import type { FastifyError } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { ZodError } from "zod";
import type { ErrorResponse, FieldError } from "@core-care/schema";
import { AppError } from "../errors.js";

const GENERIC_500 = "An unexpected error occurred.";

function errorBody(
  status: number,
  message: string,
  extra: { errorCode?: number | string | undefined; errors?: FieldError[] | undefined } = {},
): ErrorResponse {
  return {
    responseStatus: {
      status,
      message,
      ...(extra.errorCode === undefined ? {} : { errorCode: extra.errorCode }),
      ...(extra.errors === undefined ? {} : { errors: extra.errors }),
    },
  };
}

/** Turns a zod issue path such as `/address/zip` or `address.zip` into the dotted field name. */
function fieldName(instancePath: string, context: string): string {
  const path = instancePath.replace(/^\//, "").split("/").filter(Boolean).join(".");
  return path === "" ? context : path;
}

/**
 * One error handler: AppError as it says, zod validation as 400 naming the fields, other client errors
 * with their own status, and anything else as 500 without internals (logged without request data).
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        return reply
          .code(error.statusCode)
          .send(
            errorBody(error.statusCode, error.message, { errorCode: error.errorCode, errors: error.errors }),
          );
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const context = error.validationContext ?? "body";
        const errors = error.validation.map((v) => ({
          field: fieldName(v.instancePath, context),
          message: v.message ?? "Invalid value.",
        }));
        const first = errors[0];
        const message = first === undefined ? "Invalid request." : `${first.field}: ${first.message}`;
        return reply.code(400).send(errorBody(400, message, { errors }));
      }
      if (error instanceof ZodError) {
        const errors = error.issues.map((issue) => ({
          field: issue.path.map(String).join(".") || "body",
          message: issue.message,
        }));
        const first = errors[0];
        return reply.code(400).send(
          errorBody(400, first === undefined ? "Invalid request." : `${first.field}: ${first.message}`, {
            errors,
          }),
        );
      }
      if (isResponseSerializationError(error)) {
        request.log.error(
          { err: { message: "response failed its schema", url: error.url } },
          "serialization",
        );
        return reply.code(500).send(errorBody(500, GENERIC_500));
      }
      const status = typeof error.statusCode === "number" ? error.statusCode : 500;
      if (status >= 400 && status < 500) {
        const message =
          status === 429 ? "Too many requests. Please wait a few minutes and try again." : error.message;
        return reply.code(status).send(errorBody(status, message));
      }
      request.log.error(
        { err: { type: error.name, code: error.code, stack: error.stack } },
        "request failed",
      );
      return reply.code(500).send(errorBody(500, GENERIC_500));
    });
  },
  { name: "error-handler" },
);

export { errorBody };

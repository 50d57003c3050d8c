import fp from "fastify-plugin";
import type { FastifyError } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { ZodError } from "zod";
import type { ErrorResponse, FieldError } from "@core-care/schema";
import { AppError, fieldMessage } from "../errors.js";
import { isDatabaseUnavailable, isStatementTimeout } from "../db/errors.js";

export const GENERIC_500 = "An unexpected error occurred.";
const UNAVAILABLE_503 = "The service is briefly unavailable. Please try again in a moment.";
const TIMEOUT_503 = "This list took too long to read. Please try again in a moment.";
/** Seconds a client is told to wait after a 503: about how long a database restart or fail-over takes. */
export const RETRY_AFTER_SECONDS = 5;

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
 * with their own status, an unreachable database as 503 with Retry-After, and anything else as 500
 * without internals (logged without request data).
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        if (error.headers !== undefined) reply.headers(error.headers);
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
        const message = first === undefined ? "Invalid request." : fieldMessage(first.field, first.message);
        return reply.code(400).send(errorBody(400, message, { errors }));
      }
      if (error instanceof ZodError) {
        const errors = error.issues.map((issue) => ({
          field: issue.path.map(String).join(".") || "body",
          message: issue.message,
        }));
        const first = errors[0];
        return reply.code(400).send(
          errorBody(
            400,
            first === undefined ? "Invalid request." : fieldMessage(first.field, first.message),
            {
              errors,
            },
          ),
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
      // The logger's error serializer keeps type, code, message, stack and causes, scrubbed of PHI.
      if (isDatabaseUnavailable(error)) {
        // The database is down or restarting: nothing the caller did, and worth a retry shortly.
        request.log.error({ err: error }, "database unavailable");
        return reply
          .code(503)
          .header("retry-after", String(RETRY_AFTER_SECONDS))
          .send(errorBody(503, UNAVAILABLE_503));
      }
      if (isStatementTimeout(error)) {
        // A list read the server cancelled at its statement timeout (db/index.ts): busy now, not broken.
        request.log.warn({ err: error }, "statement timeout");
        return reply
          .code(503)
          .header("retry-after", String(RETRY_AFTER_SECONDS))
          .send(errorBody(503, TIMEOUT_503));
      }
      request.log.error({ err: error }, "request failed");
      return reply.code(500).send(errorBody(500, GENERIC_500));
    });
  },
  { name: "error-handler" },
);

export { errorBody };

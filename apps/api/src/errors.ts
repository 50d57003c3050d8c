import type { FieldError } from "@core-care/schema";

/** The one error type of the API; the error handler writes it in the spec's `responseStatus` shape. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly errorCode: number | string | undefined;
  readonly errors: FieldError[] | undefined;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    options: { errorCode?: number | string; errors?: FieldError[] } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.statusCode = statusCode;
    this.code = code;
    this.errorCode = options.errorCode;
    this.errors = options.errors;
  }
}

export const badRequest = (message: string, errors?: FieldError[]) =>
  new AppError(400, "BAD_REQUEST", message, errors === undefined ? {} : { errors });

/** A bad value of one named field (400). */
export const fieldError = (field: string, message: string) =>
  new AppError(400, "BAD_REQUEST", `${field}: ${message}`, { errors: [{ field, message }] });

export const unauthorized = (message = "Your session has expired. Please sign in again.") =>
  new AppError(401, "UNAUTHORIZED", message);

export const forbidden = (message = "You do not have permission to do this.") =>
  new AppError(403, "FORBIDDEN", message);

/** Missing, or belonging to another tenant: the two are indistinguishable by design. */
export const notFound = (what = "Record") => new AppError(404, "NOT_FOUND", `${what} not found.`);

export const conflict = (message: string, errorCode?: number | string) =>
  new AppError(409, "CONFLICT", message, errorCode === undefined ? {} : { errorCode });

export const tooManyRequests = (message = "Too many attempts. Please wait a few minutes and try again.") =>
  new AppError(429, "RATE_LIMITED", message);

import type { FieldError } from "@core-care/schema";

/** The one error type of the API; the error handler writes it in the spec's `responseStatus` shape. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly errorCode: number | string | undefined;
  readonly errors: FieldError[] | undefined;
  /** Response headers the answer carries, such as `Retry-After` of a 429. */
  readonly headers: Record<string, string> | undefined;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    options: { errorCode?: number | string; errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.statusCode = statusCode;
    this.code = code;
    this.errorCode = options.errorCode;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

export const badRequest = (message: string, errors?: FieldError[]) =>
  new AppError(400, "BAD_REQUEST", message, errors === undefined ? {} : { errors });

/** How people call the fields whose code names would not read as words. */
const FIELD_WORDS: Record<string, string> = {
  id: "Id",
  mrn: "MRN",
  dob: "Date of birth",
  email: "E-mail",
  ptEmail: "Patient e-mail",
  ptId: "Patient",
  patientId: "Patient",
  surveyId: "Survey",
  interfaceId: "Interface",
  locationId: "Location",
  oldPassword: "Current password",
  currentPassword: "Current password",
  confirmPassword: "Password confirmation",
  tenantId: "Practice",
  tenant: "Practice",
};

/**
 * A field's name in words for a message people read: `dob` as "Date of birth", `address.zip` as
 * "Address zip", `firstName` as "First name". The `errors` list keeps the code name, for a form to put
 * the message next to its field.
 */
export function fieldInWords(field: string): string {
  const known = FIELD_WORDS[field];
  if (known !== undefined) return known;
  const words = field
    .split(".")
    .map((part) => FIELD_WORDS[part] ?? part.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " "))
    .join(" ")
    .trim()
    .toLowerCase();
  return words === "" ? "A field" : words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The message of a bad field in words: a message that says what it is about ("The passwords do not
 * match.") as it is, any other ("Must be at least 15 characters.") after the field's name in words.
 */
export function fieldMessage(field: string, message: string): string {
  return message.startsWith("The ") ? message : `${fieldInWords(field)}: ${message}`;
}

/** A bad value of one named field (400). */
export const fieldError = (field: string, message: string) =>
  new AppError(400, "BAD_REQUEST", fieldMessage(field, message), { errors: [{ field, message }] });

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

import { ApiError, formErrorMessage } from "../api/client";

/** A failed form submit split for display: each field's message beside its field, and the form's own. */
export interface FormFailure {
  form: string;
  fields: Record<string, string>;
}

/** No failure: nothing to show. */
export const NO_FAILURE: FormFailure = { form: "", fields: {} };

/**
 * Splits a failure for a form showing the fields named in `shown`: each field error goes beside its field
 * (the server names fields by their code names, which people never see), and the form's error area says
 * to look there; a failure naming no shown field keeps the server's message there (SPEC 8).
 */
export function formFailure(error: unknown, shown: readonly string[]): FormFailure {
  const errors = error instanceof ApiError ? (error.errors ?? []) : [];
  const fields: Record<string, string> = {};
  for (const { field, message } of errors) {
    if (shown.includes(field) && fields[field] === undefined) fields[field] = message;
  }
  const count = Object.keys(fields).length;
  if (count === 0) return { form: formErrorMessage(error), fields };
  const placed = errors.every((e) => shown.includes(e.field));
  if (!placed) return { form: formErrorMessage(error), fields };
  return {
    form: count === 1 ? "Please correct the field marked below." : "Please correct the fields marked below.",
    fields,
  };
}

/** The props that tie an input to its error message (announced with the field by screen readers). */
export function invalidProps(id: string, message: string | undefined, describedBy?: string) {
  const ids = [message ? `${id}-error` : undefined, describedBy].filter(Boolean).join(" ");
  return {
    "aria-invalid": message ? (true as const) : undefined,
    "aria-describedby": ids === "" ? undefined : ids,
  };
}

/** A field's error message, under the field; renders nothing without one. */
export function FieldMessage({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={`${id}-error`} className="field-error">
      {message}
    </p>
  );
}

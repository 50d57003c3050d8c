import type { ReactNode } from "react";
import { PASSWORD_MIN_LENGTH } from "@core-care/schema";
import { FieldMessage, invalidProps, type FormFailure } from "./field-errors";
import { formText } from "./form";
import { PasswordRules } from "./password-rules";

/**
 * The failure of a form whose new password (field `name`) and its confirmation differ; null when they
 * are alike. Said beside the confirmation before anything is sent.
 */
export function passwordsDiffer(data: FormData, name: string): FormFailure | null {
  if (formText(data, name) === formText(data, "confirmPassword")) return null;
  return {
    form: "Please correct the field marked below.",
    fields: { confirmPassword: "The new passwords do not match." },
  };
}

/** A password input with its label and the server's refusal beside it; `children` come under the refusal. */
export function PasswordField({
  id,
  name,
  label,
  autoComplete,
  message,
  required = true,
  minLength,
  describedBy,
  defaultValue,
  className = "field",
  children,
}: {
  id: string;
  name: string;
  label: string;
  autoComplete: "current-password" | "new-password";
  message: string | undefined;
  required?: boolean;
  /** For a new password: the server's minimum, checked by the browser first. */
  minLength?: number;
  describedBy?: string;
  defaultValue?: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="password"
        autoComplete={autoComplete}
        minLength={minLength}
        defaultValue={defaultValue}
        required={required}
        {...invalidProps(id, message, describedBy)}
      />
      <FieldMessage id={id} message={message} />
      {children}
    </div>
  );
}

/**
 * A new password typed twice (`password` and `confirmPassword`), both required, every rule stated under
 * the first, and each refusal beside its field.
 */
export function NewPasswordFields({ id, failure }: { id: string; failure: FormFailure }) {
  return (
    <>
      <PasswordField
        id={`${id}-new`}
        name="password"
        label="New password"
        autoComplete="new-password"
        message={failure.fields.password}
        minLength={PASSWORD_MIN_LENGTH}
        describedBy={`${id}-rule`}
      >
        <PasswordRules id={`${id}-rule`} />
      </PasswordField>
      <ConfirmPasswordField id={id} failure={failure} />
    </>
  );
}

/** The new password typed again (`confirmPassword`), with its refusal beside it. */
export function ConfirmPasswordField({
  id,
  failure,
  required = true,
}: {
  id: string;
  failure: FormFailure;
  required?: boolean;
}) {
  return (
    <PasswordField
      id={`${id}-confirm`}
      name="confirmPassword"
      label="Confirm new password"
      autoComplete="new-password"
      message={failure.fields.confirmPassword}
      required={required}
    />
  );
}

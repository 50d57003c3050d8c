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

/**
 * A new password typed twice (`password` and `confirmPassword`), both required, every rule stated under
 * the first, and each refusal beside its field.
 */
export function NewPasswordFields({ id, failure }: { id: string; failure: FormFailure }) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-new`}>New password</label>
        <input
          id={`${id}-new`}
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={15}
          required
          {...invalidProps(`${id}-new`, failure.fields.password, `${id}-rule`)}
        />
        <FieldMessage id={`${id}-new`} message={failure.fields.password} />
        <PasswordRules id={`${id}-rule`} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-confirm`}>Confirm new password</label>
        <input
          id={`${id}-confirm`}
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          {...invalidProps(`${id}-confirm`, failure.fields.confirmPassword)}
        />
        <FieldMessage id={`${id}-confirm`} message={failure.fields.confirmPassword} />
      </div>
    </>
  );
}

import { useId, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { api } from "../api/client";
import { AuthLayout } from "./auth-layout";
import { formText } from "../ui/form";
import { FieldMessage, formFailure, invalidProps, NO_FAILURE, type FormFailure } from "../ui/field-errors";
import { NewPasswordFields, PasswordField, passwordsDiffer } from "../ui/new-password-fields";

/** The fields the server may name in its answer, as this form calls them. */
const FIELDS = ["oldPassword", "password", "confirmPassword"];

/** /auth/changepassword, prefilled from the `email` and `pwd` query parameters (SPEC 2). */
export default function ChangePasswordPage() {
  const id = useId();
  const navigate = useNavigate();
  const params = new URLSearchParams(useLocation().search);
  const email = params.get("email") ?? "";
  const pwd = params.get("pwd") ?? "";
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const differ = passwordsDiffer(data, "password");
    if (differ !== null) {
      setFailure(differ);
      return;
    }
    setFailure(NO_FAILURE);
    setSubmitting(true);
    try {
      await api.post(
        "/api/auth/passwords",
        {
          email: formText(data, "email").trim(),
          oldPassword: formText(data, "oldPassword"),
          password: formText(data, "password"),
          confirmPassword: formText(data, "confirmPassword"),
        },
        { handleErrors: true },
      );
      await navigate(
        `/auth/login?message=${encodeURIComponent("Your password has been changed. Please sign in.")}`,
      );
    } catch (cause) {
      setFailure(formFailure(cause, email ? FIELDS : ["email", ...FIELDS]));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthLayout title="Change your password">
      <form className="form auth-form" onSubmit={(e) => void submit(e)}>
        {email ? (
          <input type="hidden" name="email" value={email} />
        ) : (
          <div className="field">
            <label htmlFor={`${id}-email`}>E-mail</label>
            <input
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="username"
              required
              {...invalidProps(`${id}-email`, failure.fields.email)}
            />
            <FieldMessage id={`${id}-email`} message={failure.fields.email} />
          </div>
        )}
        <PasswordField
          id={`${id}-old`}
          name="oldPassword"
          label="Current password"
          autoComplete="current-password"
          message={failure.fields.oldPassword}
          defaultValue={pwd}
        />
        <NewPasswordFields id={id} failure={failure} />
        <p className="form-error" role="alert">
          {failure.form}
        </p>
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={submitting}>
            {submitting ? "Processing..." : "Change password"}
          </button>
          <Link to="/auth/login">Back to login</Link>
        </div>
      </form>
    </AuthLayout>
  );
}

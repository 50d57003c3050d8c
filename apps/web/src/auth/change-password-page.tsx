import { useId, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { api, formErrorMessage } from "../api/client";
import { AuthLayout } from "./auth-layout";
import { formText } from "../ui/form";

/** /auth/changepassword, prefilled from the `email` and `pwd` query parameters (SPEC 2). */
export default function ChangePasswordPage() {
  const id = useId();
  const navigate = useNavigate();
  const params = new URLSearchParams(useLocation().search);
  const email = params.get("email") ?? "";
  const pwd = params.get("pwd") ?? "";
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState("");

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = formText(data, "password");
    const confirmPassword = formText(data, "confirmPassword");
    if (password !== confirmPassword) {
      setError("The new passwords do not match.");
      return;
    }
    setError("");
    setSubmitting(true);
    try {
      await api.post(
        "/api/auth/passwords",
        {
          email: formText(data, "email").trim(),
          oldPassword: formText(data, "oldPassword"),
          password,
          confirmPassword,
        },
        { handleErrors: true },
      );
      await navigate(
        `/auth/login?message=${encodeURIComponent("Your password has been changed. Please sign in.")}`,
      );
    } catch (cause) {
      setError(formErrorMessage(cause));
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
            <input id={`${id}-email`} name="email" type="email" autoComplete="username" required />
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-old`}>Current password</label>
          <input
            id={`${id}-old`}
            name="oldPassword"
            type="password"
            autoComplete="current-password"
            defaultValue={pwd}
            required
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-new`}>New password</label>
          <input
            id={`${id}-new`}
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={15}
            aria-describedby={`${id}-rule`}
            required
          />
          <p id={`${id}-rule`} className="hint">
            At least 15 characters. A long phrase is easiest to remember.
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-confirm`}>Confirm new password</label>
          <input
            id={`${id}-confirm`}
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            required
          />
        </div>
        <p className="form-error" role="alert">
          {error}
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

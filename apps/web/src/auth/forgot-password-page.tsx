import { useId, useState } from "react";
import { Link } from "react-router-dom";
import { api, formErrorMessage } from "../api/client";
import { AuthLayout } from "./auth-layout";
import { formText } from "../ui/form";

/** /auth/forgotpassword: asks for a reset link by e-mail (SPEC 2). */
export default function ForgotPasswordPage() {
  const id = useId();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState("");
  const [sent, setSent] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = formText(new FormData(event.currentTarget), "email").trim();
    setError("");
    setSubmitting(true);
    try {
      await api.del(`/api/auth/passwords/${encodeURIComponent(email)}`, { handleErrors: true });
      setSent(true);
    } catch (cause) {
      setError(formErrorMessage(cause));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthLayout title="Reset your password">
      {sent ? (
        <p className="notice" role="status">
          If an account exists for that e-mail, a link to choose a new password has been sent. The link is
          valid for one hour.
        </p>
      ) : (
        <form className="form auth-form" onSubmit={(e) => void submit(e)}>
          <p className="hint">
            Enter the e-mail you sign in with and we will send you a link to choose a new password.
          </p>
          <div className="field">
            <label htmlFor={`${id}-email`}>E-mail</label>
            <input id={`${id}-email`} name="email" type="email" autoComplete="username" required />
          </div>
          <p className="form-error" role="alert">
            {error}
          </p>
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={submitting}>
              {submitting ? "Processing..." : "Reset my password"}
            </button>
          </div>
        </form>
      )}
      <p className="auth-footer">
        <Link to="/auth/login">Back to login</Link>
      </p>
    </AuthLayout>
  );
}

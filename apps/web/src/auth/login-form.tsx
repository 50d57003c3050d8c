import { useId, useState } from "react";
import { Link } from "react-router-dom";
import { api, formErrorMessage } from "../api/client";
import { setMe } from "../api/session";
import type { Me } from "../api/types";
import { useOnline } from "../ui/use-online";
import { formText } from "../ui/form";

/** localStorage key of the elevated flag stored at sign-in (SPEC 4). */
export const ELEVATED_KEY = "elevated";
const FADE_MS = 300;

/**
 * The sign-in form posting to /api/auth/sessions (SPEC 2, 4). A login-test form leaves failures to
 * the client's standard handling; the login form shows them in its own error area.
 */
export function LoginForm({
  onSignedIn,
  testForm = false,
}: {
  onSignedIn: (me: Me) => void;
  testForm?: boolean;
}) {
  const id = useId();
  const online = useOnline();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState("");
  const [leaving, setLeaving] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setError("");
    setSubmitting(true);
    try {
      const me = await api.post<Me>(
        "/api/auth/sessions",
        { email: formText(data, "email"), password: formText(data, "password") },
        { handleErrors: !testForm },
      );
      try {
        localStorage.setItem(ELEVATED_KEY, "true");
      } catch {
        // Storage can be disabled; the flag is advisory.
      }
      setMe(me);
      setSubmitting(false);
      setLeaving(true);
      setTimeout(() => onSignedIn(me), FADE_MS);
    } catch (cause) {
      setSubmitting(false);
      setError(formErrorMessage(cause));
    }
  }

  return (
    <form
      className={`form auth-form${leaving ? " is-leaving" : ""}`}
      method="post"
      action="/api/auth/sessions"
      onSubmit={(e) => void submit(e)}
    >
      {!online && (
        <p className="form-error" role="alert">
          Error: No internet connectivity!
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-email`}>E-mail</label>
        <input id={`${id}-email`} name="email" type="email" autoComplete="username" required />
      </div>
      <div className="field">
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
      </div>
      <p className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={submitting}>
          {submitting ? "Processing..." : "Sign in"}
        </button>
        <Link to="/auth/forgotpassword">Forgot password?</Link>
      </div>
    </form>
  );
}

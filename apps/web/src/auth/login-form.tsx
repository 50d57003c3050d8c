import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { api, ApiError, formErrorMessage, NO_NETWORK_MESSAGE } from "../api/client";
import { setMe } from "../api/session";
import type { Me, SecondFactorNeeded, SignInEnrolled, TotpEnrolment } from "../api/types";
import { useOnline } from "../ui/use-online";
import { formText } from "../ui/form";
import { CodeField, TotpSetup } from "./totp-setup";

/** localStorage key of the elevated flag stored at sign-in (SPEC 4). */
export const ELEVATED_KEY = "elevated";
/** What the sign-in form says while the browser is offline (SPEC 2). */
export const OFFLINE_MESSAGE = "Error: No internet connectivity!";
const FADE_MS = 300;

type Step = "password" | "totp" | "enrol";

/**
 * The sign-in form posting to /api/auth/sessions (SPEC 2, 4). A login-test form leaves failures to
 * the client's standard handling; the login form shows them in its own error area. When the account has
 * a second factor the form then asks for its code; when the practice requires one the user has not set
 * up, it sets one up first.
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
  const [step, setStep] = useState<Step>("password");
  const [recovery, setRecovery] = useState(false);
  const enrolledMe = useRef<Me | null>(null);

  // One error at a time: offline, the offline message alone; back online, a failure that was only the
  // network's goes with it.
  useEffect(() => {
    if (online) setError((shown) => (shown === NO_NETWORK_MESSAGE ? "" : shown));
  }, [online]);
  const shownError = online ? error : OFFLINE_MESSAGE;

  function finish(me: Me) {
    try {
      localStorage.setItem(ELEVATED_KEY, "true");
    } catch {
      // Storage can be disabled; the flag is advisory.
    }
    setMe(me);
    setSubmitting(false);
    setLeaving(true);
    setTimeout(() => onSignedIn(me), FADE_MS);
  }

  /** A pending sign-in that expired (401) starts over at the password. */
  function failed(cause: unknown) {
    setSubmitting(false);
    if (cause instanceof ApiError && cause.status === 401) setStep("password");
    setError(formErrorMessage(cause));
  }

  async function submitPassword(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Offline, the form already says so; a request would only fail again.
    if (!online) return;
    const data = new FormData(event.currentTarget);
    setError("");
    setSubmitting(true);
    try {
      const answer = await api.post<Me | SecondFactorNeeded>(
        "/api/auth/sessions",
        { email: formText(data, "email"), password: formText(data, "password") },
        { handleErrors: !testForm },
      );
      if ("secondFactor" in answer) {
        setSubmitting(false);
        setRecovery(false);
        setStep(answer.secondFactor);
        return;
      }
      finish(answer);
    } catch (cause) {
      setSubmitting(false);
      setError(formErrorMessage(cause));
    }
  }

  async function submitCode(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setError("");
    setSubmitting(true);
    try {
      finish(
        await api.post<Me>(
          "/api/auth/sessions/totp",
          { code: formText(data, "code").trim() },
          { handleErrors: true },
        ),
      );
    } catch (cause) {
      failed(cause);
    }
  }

  const startEnrolment = useCallback(
    () => api.post<TotpEnrolment>("/api/auth/sessions/totp/enrolment", undefined, { handleErrors: true }),
    [],
  );
  const confirmEnrolment = useCallback(async (code: string) => {
    const answer = await api.post<SignInEnrolled>(
      "/api/auth/sessions/totp/enrolment/confirm",
      { code },
      { handleErrors: true },
    );
    enrolledMe.current = answer.me;
    return answer.recoveryCodes;
  }, []);

  const errorArea = (
    <p className="form-error" role="alert" aria-live="assertive">
      {shownError}
    </p>
  );

  if (step === "enrol") {
    return (
      <div className={`auth-form${leaving ? " is-leaving" : ""}`}>
        <h2>Set up a second factor</h2>
        <p className="notice" role="status">
          Your practice requires a second factor for administrators. Set it up to finish signing in.
        </p>
        <TotpSetup
          start={startEnrolment}
          confirm={confirmEnrolment}
          doneLabel="Continue"
          onDone={() => {
            if (enrolledMe.current !== null) finish(enrolledMe.current);
          }}
        />
        {errorArea}
      </div>
    );
  }

  if (step === "totp") {
    return (
      <form
        className={`form auth-form${leaving ? " is-leaving" : ""}`}
        onSubmit={(e) => void submitCode(e)}
        aria-labelledby={`${id}-totp-title`}
      >
        <h2 id={`${id}-totp-title`}>Second factor</h2>
        <CodeField
          key={recovery ? "recovery" : "totp"}
          label={recovery ? "Recovery code" : "Authentication code"}
          recovery={recovery}
          error={error}
          autoFocus
        />
        {errorArea}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={submitting}>
            {submitting ? "Processing..." : "Verify"}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              setError("");
              setRecovery(!recovery);
            }}
          >
            {recovery ? "Use the authenticator app" : "Use a recovery code"}
          </button>
        </div>
      </form>
    );
  }

  return (
    <form
      className={`form auth-form${leaving ? " is-leaving" : ""}`}
      method="post"
      action="/api/auth/sessions"
      onSubmit={(e) => void submitPassword(e)}
    >
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
      {errorArea}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={submitting}>
          {submitting ? "Processing..." : "Sign in"}
        </button>
        <Link to="/auth/forgotpassword">Forgot password?</Link>
      </div>
    </form>
  );
}

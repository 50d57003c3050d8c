import { useEffect, useId, useMemo, useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { api, formErrorMessage } from "../api/client";
import { readBodyMe } from "../api/session";
import type { Me, TenantRef } from "../api/types";
import type { InvitationLookupResponse } from "@core-care/schema";
import { formFailure, NO_FAILURE, type FormFailure } from "../ui/field-errors";
import { formText } from "../ui/form";
import { NewPasswordFields, passwordsDiffer } from "../ui/new-password-fields";
import { AuthLayout } from "./auth-layout";

type Step =
  | { kind: "checking" }
  | { kind: "invalid"; message: string }
  | { kind: "offered"; tenant: TenantRef }
  | { kind: "joined"; tenant: TenantRef }
  /** A new account's invitation: it chooses its password, then signs in. */
  | { kind: "choose-password"; tenant: TenantRef; email: string }
  | { kind: "password-set"; tenant: TenantRef; email: string };

/** What the sign-in page says after a new account has chosen its password. */
export const PASSWORD_SET_MESSAGE = "Your password is set. Please sign in.";

/** The new account's password form: both fields, every rule stated, each refusal beside its field. */
function ChoosePassword({
  tenant,
  email,
  token,
  onDone,
}: {
  tenant: TenantRef;
  email: string;
  token: string;
  onDone: () => void;
}) {
  const id = useId();
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const differ = passwordsDiffer(data, "password");
    if (differ !== null) {
      setFailure(differ);
      return;
    }
    setFailure(NO_FAILURE);
    setBusy(true);
    try {
      await api.post(
        "/api/users/invitations/accept",
        { token, password: formText(data, "password"), confirmPassword: formText(data, "confirmPassword") },
        { handleErrors: true },
      );
      onDone();
    } catch (cause) {
      setFailure(formFailure(cause, ["password", "confirmPassword"]));
      setBusy(false);
    }
  }

  return (
    <AuthLayout title="Choose your password">
      <p>
        {tenant.name} has made you a Core Care account. You sign in with your e-mail address,{" "}
        <strong>{email}</strong>, and the password you choose here.
      </p>
      <form className="form auth-form" onSubmit={(e) => void submit(e)}>
        <input type="hidden" name="email" autoComplete="username" value={email} />
        <NewPasswordFields id={id} failure={failure} />
        <p className="form-error" role="alert">
          {failure.form}
        </p>
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? "Processing..." : "Set my password"}
          </button>
        </div>
      </form>
    </AuthLayout>
  );
}

/** The token of the e-mailed link, from the URL fragment (never sent to a server with the page). */
export function invitationToken(hash: string): string {
  return new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash).get("token") ?? "";
}

const NO_TOKEN =
  "This link holds no invitation. Please open the link from the invitation e-mail again, whole.";

/**
 * /invitation#token=…: the page of the e-mail inviting a person who already has an account to join a
 * practice. It names the practice, joins only when the person confirms, then leads them to sign in (or,
 * when signed in, to switch to that practice). Nothing of theirs changes before they confirm.
 */
export default function InvitationPage() {
  const { hash } = useLocation();
  const token = useMemo(() => invitationToken(hash), [hash]);
  const [step, setStep] = useState<Step>({ kind: "checking" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  // The server puts the signed-in user on the page; asking the API would send a signed-out visitor to logout.
  const me = useMemo<Me | undefined>(() => readBodyMe(), []);

  useEffect(() => {
    if (token === "") {
      setStep({ kind: "invalid", message: NO_TOKEN });
      return;
    }
    let live = true;
    api
      .post<InvitationLookupResponse>("/api/users/invitations/lookup", { token }, { handleErrors: true })
      .then(
        ({ tenant, newAccount, email }) => {
          if (!live) return;
          setStep(
            newAccount && email !== undefined
              ? { kind: "choose-password", tenant, email }
              : { kind: "offered", tenant },
          );
        },
        (cause: unknown) => live && setStep({ kind: "invalid", message: formErrorMessage(cause) }),
      );
    return () => {
      live = false;
    };
  }, [token]);

  // The button pressed is gone once joined: the new heading takes the focus, so it is read out.
  useEffect(() => {
    if (step.kind === "joined" || step.kind === "password-set")
      document.getElementById("auth-title")?.focus();
  }, [step.kind]);

  async function join() {
    setError("");
    setBusy(true);
    try {
      const { tenant } = await api.post<{ tenant: TenantRef }>(
        "/api/users/invitations/accept",
        { token },
        { handleErrors: true },
      );
      setStep({ kind: "joined", tenant });
    } catch (cause) {
      setError(formErrorMessage(cause));
    } finally {
      setBusy(false);
    }
  }

  async function switchTo(tenant: TenantRef) {
    setError("");
    setBusy(true);
    try {
      await api.put<Me>("/api/users/me/tenant", { tenantId: tenant.id }, { handleErrors: true });
      window.location.assign("/");
    } catch (cause) {
      setError(formErrorMessage(cause));
      setBusy(false);
    }
  }

  switch (step.kind) {
    case "checking":
      return (
        <AuthLayout title="Invitation">
          <p role="status">Checking the invitation...</p>
        </AuthLayout>
      );
    case "invalid":
      return (
        <AuthLayout title="Invitation">
          <p className="form-error" role="alert">
            {step.message}
          </p>
          <p className="auth-footer">
            <Link to="/auth/login">Go to sign in</Link>
          </p>
        </AuthLayout>
      );
    case "offered":
      return (
        <AuthLayout title={`Join ${step.tenant.name}`}>
          <p>
            {step.tenant.name} invites you to work with them on Core Care, with the account you already have.
            Your name, password and other practices stay as they are.
          </p>
          <p className="form-error" role="alert">
            {error}
          </p>
          <div className="form-actions">
            <button type="button" className="button primary" disabled={busy} onClick={() => void join()}>
              {busy ? "Processing..." : `Join ${step.tenant.name}`}
            </button>
          </div>
          <p className="auth-footer hint">If you did not expect this invitation, you can close this page.</p>
        </AuthLayout>
      );
    case "choose-password":
      return (
        <ChoosePassword
          tenant={step.tenant}
          email={step.email}
          token={token}
          onDone={() => setStep({ kind: "password-set", tenant: step.tenant, email: step.email })}
        />
      );
    case "password-set":
      return (
        <AuthLayout title="Your password is set">
          <p className="notice success" role="status">
            Your Core Care account at {step.tenant.name} is ready. Sign in with {step.email} and your new
            password.
          </p>
          <div className="form-actions">
            <Link
              to={`/auth/login?message=${encodeURIComponent(PASSWORD_SET_MESSAGE)}`}
              className="button primary"
            >
              Sign in
            </Link>
          </div>
        </AuthLayout>
      );
    case "joined":
      return (
        <AuthLayout title={`You joined ${step.tenant.name}`}>
          <p className="notice success" role="status">
            You are now a member of {step.tenant.name}.
            {me ? " Switch to it to work there." : " Sign in to start working there."}
          </p>
          <p className="form-error" role="alert">
            {error}
          </p>
          <div className="form-actions">
            {me ? (
              <button
                type="button"
                className="button primary"
                disabled={busy}
                onClick={() => void switchTo(step.tenant)}
              >
                Switch to {step.tenant.name}
              </button>
            ) : (
              <Link to="/auth/login" className="button primary">
                Sign in
              </Link>
            )}
          </div>
        </AuthLayout>
      );
  }
}

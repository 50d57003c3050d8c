import { useEffect, useId, useMemo, useRef, useState } from "react";
import { renderSVG } from "uqr";
import { formErrorMessage } from "../api/client";
import type { TotpEnrolment } from "../api/types";
import { formText } from "../ui/form";

/**
 * The field for a second-factor code: 6 digits from the authenticator app (numeric keypad, the browser's
 * one-time-code autofill), or a recovery code when `recovery` is set.
 */
export function CodeField({
  name = "code",
  label,
  recovery = false,
  error = "",
  autoFocus = false,
}: {
  name?: string;
  label: string;
  recovery?: boolean;
  error?: string;
  autoFocus?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={`${id}-code`}>{label}</label>
      <input
        id={`${id}-code`}
        name={name}
        type="text"
        required
        autoComplete="one-time-code"
        inputMode={recovery ? "text" : "numeric"}
        pattern={recovery ? "[A-Za-z0-9 \\-]{12,16}" : "[0-9]{6}"}
        maxLength={recovery ? 16 : 6}
        spellCheck={false}
        autoFocus={autoFocus}
        aria-describedby={`${id}-hint`}
        aria-invalid={error === "" ? undefined : true}
      />
      <p className="hint" id={`${id}-hint`}>
        {recovery
          ? "One of the recovery codes you kept, such as ABCD-EFGH-JKLM."
          : "The 6-digit code your authenticator app shows now."}
      </p>
    </div>
  );
}

/** The recovery codes, shown once after the second factor goes on. */
export function RecoveryCodesList({
  codes,
  onDone,
  doneLabel,
}: {
  codes: string[];
  onDone: () => void;
  doneLabel: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="totp-recovery">
      <h2 ref={heading} tabIndex={-1}>
        Recovery codes
      </h2>
      <p className="notice success" role="status">
        The second factor is on.
      </p>
      <p>
        Keep these codes somewhere safe. Each works once in place of a code if you lose your authenticator
        app. They are shown only now.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <button type="button" className="button primary" onClick={onDone}>
          {doneLabel}
        </button>
      </div>
    </div>
  );
}

/**
 * Setting up the second factor: starts an enrolment, shows the authenticator link as a QR code and as text
 * (the secret too, for apps that take it typed), then confirms it with a code and shows the recovery codes.
 */
export function TotpSetup({
  start,
  confirm,
  onDone,
  doneLabel,
}: {
  start: () => Promise<TotpEnrolment>;
  confirm: (code: string) => Promise<string[]>;
  onDone: () => void;
  doneLabel: string;
}) {
  const id = useId();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start().then(setEnrolment, (cause: unknown) => setError(formErrorMessage(cause)));
  }, [start]);

  const qr = useMemo(
    () =>
      enrolment === null
        ? ""
        : `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(enrolment.uri, { border: 2 }))}`,
    [enrolment],
  );

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = formText(new FormData(event.currentTarget), "code").trim();
    setError("");
    setBusy(true);
    try {
      setCodes(await confirm(code));
    } catch (cause) {
      setError(formErrorMessage(cause));
    } finally {
      setBusy(false);
    }
  }

  if (codes !== null) return <RecoveryCodesList codes={codes} onDone={onDone} doneLabel={doneLabel} />;

  return (
    <form className="form totp-setup" onSubmit={(e) => void submit(e)} aria-busy={enrolment === null}>
      {enrolment !== null && (
        <>
          <p>
            Scan the QR code with an authenticator app, or enter the key by hand. Then type the code the app
            shows.
          </p>
          <img
            className="totp-qr"
            src={qr}
            width={200}
            height={200}
            alt="QR code of the authenticator link"
          />
          <div className="field">
            <label htmlFor={`${id}-secret`}>Key</label>
            <input id={`${id}-secret`} readOnly value={enrolment.secret} spellCheck={false} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-uri`}>Authenticator link</label>
            <input id={`${id}-uri`} readOnly value={enrolment.uri} spellCheck={false} />
          </div>
          <CodeField label="Code from the app" error={error} />
        </>
      )}
      <p className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
      {enrolment !== null && (
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? "Processing..." : "Turn on"}
          </button>
        </div>
      )}
    </form>
  );
}

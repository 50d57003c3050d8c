import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { Me } from "@core-care/schema";
import { ApiError, api, replaceSession } from "../api/client";
import { setMe } from "../api/session";

/**
 * The only way out of a patient's survey (kiosk safety): the staff member who handed the tablet over
 * enters their password to return to the staff screens (the server checks it, ends the patient
 * credential and gives their session back), or the tablet logs out. A staff member with a second factor
 * also gives its code, which the server asks for once the password is right: the patient may have seen
 * the password typed. The answers so far are saved first, while the patient credential still may.
 */
export function StaffExit({
  onSave,
  onLeave,
}: {
  onSave: () => Promise<void>;
  onLeave: (to: string) => Promise<void>;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The server's request for the second factor's code, once the password was right. */
  const [codeAsked, setCodeAsked] = useState<string | null>(null);
  const [recovery, setRecovery] = useState(false);
  const id = useId();

  useEffect(() => {
    if (codeAsked !== null) codeRef.current?.focus();
  }, [codeAsked, recovery]);

  const close = () => {
    if (passwordRef.current) passwordRef.current.value = "";
    if (codeRef.current) codeRef.current.value = "";
    setError(null);
    setCodeAsked(null);
    setRecovery(false);
    dialogRef.current?.close();
  };

  const leave = async (to: string) => {
    setBusy(true);
    try {
      await onLeave(to);
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    const password = passwordRef.current?.value ?? "";
    if (password === "") {
      setError("Please enter your password.");
      return;
    }
    const code = codeAsked === null ? undefined : (codeRef.current?.value ?? "").trim();
    if (code === "") {
      setError(recovery ? "Please enter a recovery code." : "Please enter the code.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSave();
      setMe(
        await replaceSession(() =>
          api.post<Me>("/api/tablet/handover/staff", code === undefined ? { password } : { password, code }, {
            handleErrors: true,
          }),
        ),
      );
    } catch (failure) {
      setBusy(false);
      const asked = failure instanceof ApiError ? failure.errors?.find((e) => e.field === "code") : undefined;
      if (asked !== undefined && code === undefined) {
        // The password was right; the staff member's second factor is asked for next.
        setCodeAsked(asked.message);
        return;
      }
      setError(
        failure instanceof ApiError && failure.status === 0
          ? "Error: No network connectivity"
          : failure instanceof ApiError
            ? (failure.errors?.[0]?.message ?? failure.message)
            : "The password could not be checked.",
      );
      return;
    }
    if (passwordRef.current) passwordRef.current.value = "";
    await leave("/tablet");
  };

  const errorId = `${id}-error`;
  const errorArea =
    error !== null ? (
      <p className="sv-error" id={errorId} role="alert">
        {error}
      </p>
    ) : null;

  return (
    <>
      <button type="button" className="tablet-staff-button" onClick={() => dialogRef.current?.showModal()}>
        Staff
      </button>
      <dialog ref={dialogRef} className="tablet-dialog" aria-labelledby={`${id}-title`} onClose={close}>
        <form onSubmit={(event) => void verify(event)} noValidate>
          <h2 id={`${id}-title`}>Staff only</h2>
          <p>Enter your password to leave this survey. The answers given so far are saved.</p>
          <label className="sv-title" htmlFor={`${id}-password`}>
            Password
          </label>
          {codeAsked === null ? errorArea : null}
          <input
            ref={passwordRef}
            id={`${id}-password`}
            className="sv-input"
            type="password"
            autoComplete="current-password"
            readOnly={codeAsked !== null}
            aria-describedby={codeAsked === null && error !== null ? errorId : undefined}
          />
          {codeAsked !== null ? (
            <div className="tablet-dialog-code">
              <p role="status">{codeAsked}</p>
              <label className="sv-title" htmlFor={`${id}-code`}>
                {recovery ? "Recovery code" : "Authentication code"}
              </label>
              {errorArea}
              <input
                key={recovery ? "recovery" : "totp"}
                ref={codeRef}
                id={`${id}-code`}
                className="sv-input"
                type="text"
                autoComplete="one-time-code"
                inputMode={recovery ? "text" : "numeric"}
                maxLength={recovery ? 16 : 6}
                spellCheck={false}
                aria-describedby={[`${id}-code-hint`, ...(error !== null ? [errorId] : [])].join(" ")}
                aria-invalid={error === null ? undefined : true}
              />
              <p className="sv-help" id={`${id}-code-hint`}>
                {recovery
                  ? "One of the recovery codes you kept, such as ABCD-EFGH-JKLM."
                  : "The 6-digit code your authenticator app shows now."}
              </p>
              <button
                type="button"
                className="sv-button sv-button-secondary"
                disabled={busy}
                onClick={() => {
                  setError(null);
                  setRecovery(!recovery);
                }}
              >
                {recovery ? "Use the authenticator app" : "Use a recovery code"}
              </button>
            </div>
          ) : null}
          <div className="tablet-dialog-actions">
            <button type="submit" className="sv-button sv-button-primary" disabled={busy}>
              Return to staff screen
            </button>
            <button
              type="button"
              className="sv-button sv-button-secondary"
              disabled={busy}
              onClick={() => void leave("/auth/logout")}
            >
              Log out
            </button>
            <button type="button" className="sv-button sv-button-secondary" disabled={busy} onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

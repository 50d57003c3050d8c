import { useId, useRef, useState, type FormEvent } from "react";
import type { Me } from "@core-care/schema";
import { ApiError, api, replaceSession } from "../api/client";
import { setMe } from "../api/session";

/**
 * The only way out of a patient's survey (kiosk safety): the staff member who handed the tablet over
 * enters their password to return to the staff screens (the server checks it, ends the patient
 * credential and gives their session back), or the tablet logs out. The answers so far are saved first,
 * while the patient credential still may.
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
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const close = () => {
    if (passwordRef.current) passwordRef.current.value = "";
    setError(null);
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
    setBusy(true);
    setError(null);
    try {
      await onSave();
      setMe(
        await replaceSession(() =>
          api.post<Me>("/api/tablet/handover/staff", { password }, { handleErrors: true }),
        ),
      );
    } catch (failure) {
      setBusy(false);
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
          {error !== null ? (
            <p className="sv-error" id={`${id}-error`} role="alert">
              {error}
            </p>
          ) : null}
          <input
            ref={passwordRef}
            id={`${id}-password`}
            className="sv-input"
            type="password"
            autoComplete="current-password"
            aria-describedby={error !== null ? `${id}-error` : undefined}
          />
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

import { useCallback, useEffect, useId, useState } from "react";
import { api, formErrorMessage } from "../../api/client";
import { type Me, type RecoveryCodes, type TotpEnrolment, type TotpStatus } from "../../api/types";
import { TotpSetup } from "../../auth/totp-setup";
import { formText } from "../../ui/form";

/**
 * The account's second factor (TOTP): administrators turn it on with an authenticator app and get
 * recovery codes once; whoever has it may turn it off with the password, unless a practice requires it.
 */
export function SecuritySection({ me }: { me: Me }) {
  const id = useId();
  const [status, setStatus] = useState<TotpStatus | null>(null);
  const [settingUp, setSettingUp] = useState(false);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  const admin = me.may.setUpSecondFactor;

  const load = useCallback(() => {
    api.get<TotpStatus>("/api/users/me/totp").then(setStatus, () => setStatus(null));
  }, []);
  useEffect(load, [load]);

  const start = useCallback(() => api.post<TotpEnrolment>("/api/users/me/totp/enrolment"), []);
  const confirm = useCallback(
    async (code: string) =>
      (
        await api.post<RecoveryCodes>(
          "/api/users/me/totp/enrolment/confirm",
          { code },
          { handleErrors: true },
        )
      ).recoveryCodes,
    [],
  );

  async function turnOff(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const password = formText(new FormData(form), "password");
    setError("");
    setBusy(true);
    try {
      await api.del("/api/users/me/totp", { handleErrors: true }, { password });
      form.reset();
      setNotice("The second factor is off.");
      load();
    } catch (cause) {
      setError(formErrorMessage(cause));
    } finally {
      setBusy(false);
    }
  }

  if (status === null || (!admin && !status.enabled)) return null;

  return (
    <section className="card security-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Second factor</h2>
      {notice !== "" && (
        <p className="notice success" role="status">
          {notice}
        </p>
      )}
      {settingUp ? (
        <TotpSetup
          start={start}
          confirm={confirm}
          doneLabel="Done"
          onDone={() => {
            setSettingUp(false);
            setNotice("");
            load();
          }}
        />
      ) : status.enabled ? (
        <>
          <p>Signing in asks for a code from your authenticator app after the password.</p>
          {status.required ? (
            <p className="hint">Your practice requires a second factor for administrators.</p>
          ) : (
            <form className="form" onSubmit={(e) => void turnOff(e)}>
              <div className="field">
                <label htmlFor={`${id}-password`}>Current password</label>
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
                <button type="submit" className="button" disabled={busy}>
                  {busy ? "Processing..." : "Turn off second factor"}
                </button>
              </div>
            </form>
          )}
        </>
      ) : (
        <>
          <p>
            A second factor asks for a code from an authenticator app on your phone after the password, so a
            stolen password alone does not let anyone in.
          </p>
          <div className="form-actions">
            <button
              type="button"
              className="button primary"
              onClick={() => {
                setNotice("");
                setSettingUp(true);
              }}
            >
              Turn on second factor
            </button>
          </div>
        </>
      )}
    </section>
  );
}

import { useId, useState } from "react";
import { api } from "../api/client";
import { useMe } from "../api/session";
import type { Patient } from "../api/types";
import { AWV_EMAIL_SENT, TELE_AWV_ERROR } from "./tele-awv-form";
import "./awv.css";

/** The body of POST /api/auth/sendAWVEmail (SPEC 7). */
export interface SendAwvEmailBody {
  ptEmail: string;
  tenant: string;
  ptId: string;
  ptS: boolean;
  ptPY: boolean;
  pt100: boolean;
}

/**
 * The wellness-visit e-mail form of the patient screen (SPEC 2, 7): sends the patient a Tele-AWV link.
 * It shows only for tenants whose `teleAwvEmail` setting is on; the three flags choose which smoking
 * questions the questionnaire asks.
 */
export function AwvEmailForm({ patient }: { patient: Patient }) {
  const me = useMe();
  const id = useId();
  const [ptEmail, setPtEmail] = useState(patient.email ?? "");
  const [flags, setFlags] = useState({ ptS: true, ptPY: true, pt100: true });
  const [busy, setBusy] = useState(false);
  if (!me?.tenant.settings.teleAwvEmail) return null;
  const tenant = me.tenant.id;

  async function send() {
    setBusy(true);
    const body: SendAwvEmailBody = { ptEmail: ptEmail.trim(), tenant, ptId: patient.id, ...flags };
    try {
      await api.post("/api/auth/sendAWVEmail", body, { handleErrors: true });
      window.alert(AWV_EMAIL_SENT);
    } catch {
      window.alert(TELE_AWV_ERROR);
    } finally {
      setBusy(false);
    }
  }

  const flag = (name: keyof typeof flags, label: string) => (
    <label>
      <input
        type="checkbox"
        name={name}
        checked={flags[name]}
        onChange={(e) => setFlags({ ...flags, [name]: e.target.checked })}
      />{" "}
      {label}
    </label>
  );

  return (
    <div className="card awv-no-print">
      <h2>Tele-AWV</h2>
      <p className="hint">E-mail the patient a link to the Annual Wellness Visit questionnaire.</p>
      <form
        className="form awv-email-form"
        aria-label="Wellness visit e-mail"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-email`}>Patient e-mail</label>
          <input
            id={`${id}-email`}
            type="email"
            name="ptEmail"
            autoComplete="off"
            required
            value={ptEmail}
            onChange={(e) => setPtEmail(e.target.value)}
          />
        </div>
        <fieldset className="awv-flags">
          <legend className="visually-hidden">Smoking questions to ask</legend>
          {flag("ptS", "Ask smoking status")}
          {flag("ptPY", "Ask about pack-years")}
          {flag("pt100", "Ask about 100 cigarettes")}
        </fieldset>
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy || ptEmail.trim() === ""}>
            Send Tele-AWV e-mail
          </button>
        </div>
      </form>
    </div>
  );
}

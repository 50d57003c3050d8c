import { useEffect, useState } from "react";
import { useLocation } from "react-router-dom";
import { useMe } from "../../api/session";
import { roleLabels } from "../roles";
import { usePageTitle } from "../page-title";
import { EditAccountModal } from "./edit-account-modal";
import { SecuritySection } from "./security-section";

/** The account page; the user-name link lands here with the edit-account modal open (SPEC 2). */
export default function AccountPage() {
  usePageTitle("Account");
  const me = useMe();
  const [editing, setEditing] = useState(true);
  const [saved, setSaved] = useState(false);
  const { key } = useLocation();
  useEffect(() => setEditing(true), [key]);
  if (!me) return null;
  return (
    <section>
      <div className="page-header">
        <h1>Account</h1>
        <button
          type="button"
          className="button primary"
          onClick={() => {
            setSaved(false);
            setEditing(true);
          }}
        >
          Edit account
        </button>
      </div>
      {saved && (
        <p className="notice success" role="status">
          Your account has been saved.
        </p>
      )}
      <div className="card">
        <dl className="answers">
          <dt>Name</dt>
          <dd>
            {me.user.firstName} {me.user.lastName}
          </dd>
          <dt>E-mail</dt>
          <dd>{me.user.email}</dd>
          <dt>Roles</dt>
          <dd>{roleLabels(me.user.roles)}</dd>
          <dt>Tenant</dt>
          <dd>{me.tenant.name}</dd>
        </dl>
      </div>
      <SecuritySection me={me} />
      {editing && (
        <EditAccountModal
          me={me}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            setSaved(true);
          }}
        />
      )}
    </section>
  );
}

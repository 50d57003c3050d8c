import { useState } from "react";
import { useMe } from "../../api/session";
import { type Tenant } from "../../api/types";
import { switchRequest } from "../tenant-switcher";
import { ResourcePage } from "./resource-page";

/**
 * Tenants (system admins): a practice is created here, and "Switch to" moves into it (without joining
 * it) to add its first admin.
 */
export default function TenantsPage() {
  const me = useMe();
  const [switching, setSwitching] = useState(false);
  async function switchTo(tenant: Tenant) {
    if (me === null) return;
    setSwitching(true);
    try {
      await switchRequest(me, tenant.id);
      window.location.assign("/users");
    } catch {
      setSwitching(false);
    }
  }
  return (
    <ResourcePage<Tenant>
      extraAction={(t) =>
        t.id === me?.tenant.id ? null : (
          <button
            type="button"
            className="button small"
            disabled={switching}
            onClick={() => void switchTo(t)}
          >
            Switch to<span className="visually-hidden"> {t.name}</span>
          </button>
        )
      }
      title="Tenants"
      singular="Tenant"
      path="/api/tenants"
      allowed={(may) => may.manageTenants}
      rowLabel={(t) => t.name}
      columns={[
        { key: "id", header: "Id" },
        { key: "name", header: "Name" },
        {
          key: "teleAwvEmail",
          header: "Tele-AWV e-mail",
          render: (t) => (t.settings.teleAwvEmail ? "Yes" : "No"),
        },
        {
          key: "alternateFalls",
          header: "Alternate falls",
          render: (t) => (t.settings.alternateFalls ? "Yes" : "No"),
        },
        {
          key: "requireAdminTotp",
          header: "Second factor for admins",
          render: (t) => (t.settings.requireAdminTotp === true ? "Required" : "Optional"),
        },
      ]}
      fields={[
        {
          name: "id",
          label: "Id",
          required: true,
          fixedOnEdit: true,
          hint: "Lowercase letters, digits and hyphens, such as tx-plano-clinic.",
        },
        { name: "name", label: "Name", required: true },
        { name: "teleAwvEmail", label: "Tele-AWV e-mail form", type: "checkbox" },
        { name: "alternateFalls", label: "Alternate falls questions", type: "checkbox" },
        { name: "safetyAlertEmail", label: "Safety alert e-mail", type: "email" },
        { name: "requireAdminTotp", label: "Require a second factor for admins", type: "checkbox" },
        { name: "mayDeleteRecords", label: "Users may remove patients and results", type: "checkbox" },
        { name: "mayResendDeliveries", label: "Users may resend deliveries", type: "checkbox" },
        { name: "mayAcknowledgeAlerts", label: "Users may acknowledge safety alerts", type: "checkbox" },
      ]}
      toForm={(t) => ({
        id: t.id,
        name: t.name,
        ...t.settings,
        mayDeleteRecords: t.settings.usersMay?.deleteRecords === true,
        mayResendDeliveries: t.settings.usersMay?.resendDeliveries === true,
        mayAcknowledgeAlerts: t.settings.usersMay?.acknowledgeAlerts === true,
      })}
      fromForm={(values, editing) => {
        const settings: Record<string, unknown> = {
          teleAwvEmail: values.teleAwvEmail,
          alternateFalls: values.alternateFalls,
          requireAdminTotp: values.requireAdminTotp,
          // What the practice lets its plain users do beyond their defaults (admins always may).
          usersMay: {
            deleteRecords: values.mayDeleteRecords === true,
            resendDeliveries: values.mayResendDeliveries === true,
            acknowledgeAlerts: values.mayAcknowledgeAlerts === true,
          },
        };
        if (values.safetyAlertEmail) settings.safetyAlertEmail = values.safetyAlertEmail;
        // Set elsewhere (the inbound set-up by the practice's admins on Inbound messages, the CDA
        // contact through the API); kept as it is here.
        for (const key of [
          "contact",
          "inboundFacilities",
          "inboundSenders",
          "inboundProcessingId",
        ] as const) {
          if (editing?.settings[key] !== undefined) settings[key] = editing.settings[key];
        }
        return editing ? { name: values.name, settings } : { id: values.id, name: values.name, settings };
      }}
    />
  );
}

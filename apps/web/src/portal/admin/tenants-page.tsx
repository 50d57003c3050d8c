import { hasRole, type Tenant } from "../../api/types";
import { ResourcePage } from "./resource-page";

/** Tenants (system admins). */
export default function TenantsPage() {
  return (
    <ResourcePage<Tenant>
      title="Tenants"
      singular="Tenant"
      path="/api/tenants"
      allowed={(roles) => hasRole(roles, "sysAdmin")}
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
      ]}
      toForm={(t) => ({ id: t.id, name: t.name, ...t.settings })}
      fromForm={(values, editing) => {
        const settings: Record<string, unknown> = {
          teleAwvEmail: values.teleAwvEmail,
          alternateFalls: values.alternateFalls,
        };
        if (values.safetyAlertEmail) settings.safetyAlertEmail = values.safetyAlertEmail;
        return editing ? { name: values.name, settings } : { id: values.id, name: values.name, settings };
      }}
    />
  );
}

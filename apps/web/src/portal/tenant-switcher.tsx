import { useEffect, useId, useState } from "react";
import { api } from "../api/client";
import { MULTI_TENANT, type Me, type TenantRef } from "../api/types";

/** A multi-tenant user's tenant picker (PUT /api/users/me/tenant, then a fresh page in the new tenant). */
export function TenantSwitcher({ me }: { me: Me }) {
  const id = useId();
  const [tenants, setTenants] = useState<TenantRef[] | null>(null);
  const [switching, setSwitching] = useState(false);
  const multi = me.user.tenant === MULTI_TENANT;

  useEffect(() => {
    if (!multi) return;
    let live = true;
    void api.get<TenantRef[]>("/api/tenants/getMultiUserTenants").then(
      (list) => live && setTenants(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [multi]);

  if (!multi) return <span className="tenant-name">{me.tenant.name}</span>;

  async function change(tenantId: string) {
    if (tenantId === me.tenant.id) return;
    setSwitching(true);
    try {
      await api.put<Me>("/api/users/me/tenant", { tenantId });
      window.location.assign("/");
    } catch {
      setSwitching(false);
    }
  }

  const options = tenants ?? [{ id: me.tenant.id, name: me.tenant.name }];
  return (
    <div className="tenant-switcher">
      <label htmlFor={`${id}-tenant`} className="visually-hidden">
        Tenant
      </label>
      <select
        id={`${id}-tenant`}
        value={me.tenant.id}
        disabled={switching}
        onChange={(e) => void change(e.target.value)}
      >
        {options.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
    </div>
  );
}

import { useEffect, useId, useState } from "react";
import { api, replaceSession } from "../api/client";
import { MULTI_TENANT, type ListResponse, type Me, type Tenant, type TenantRef } from "../api/types";

/**
 * Switches the session to `tenantId`: a member moves among their practices, a sysAdmin into any other.
 * The session gets a new id, so the page's requests still in flight under the old one do not sign out.
 */
export function switchRequest(me: Me, tenantId: string): Promise<Me> {
  return replaceSession(() =>
    me.user.tenants.includes(tenantId) || !me.may.visitTenants
      ? api.put<Me>("/api/users/me/tenant", { tenantId })
      : api.post<Me>(`/api/tenants/${encodeURIComponent(tenantId)}/switch`),
  );
}

/** The practices a user may switch to: every one for a system administrator, else their own. */
async function loadChoices(me: Me): Promise<TenantRef[]> {
  if (me.may.manageTenants) {
    const list = await api.get<ListResponse<Tenant>>("/api/tenants", { handleErrors: true });
    return list.items.map(({ id, name }) => ({ id, name }));
  }
  return api.get<TenantRef[]>("/api/tenants/getMultiUserTenants");
}

/**
 * The practice picker of the header: a multi-tenant user's practices (PUT /api/users/me/tenant), and for
 * a system administrator every practice (POST /api/tenants/{id}/switch for one they do not belong to);
 * then a fresh page in the new practice. Anyone else sees their practice's name.
 */
export function TenantSwitcher({ me }: { me: Me }) {
  const id = useId();
  const [tenants, setTenants] = useState<TenantRef[] | null>(null);
  const [switching, setSwitching] = useState(false);
  const picks = me.user.tenant === MULTI_TENANT || me.may.visitTenants;

  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (!picks) return;
    let live = true;
    void loadChoices(me).then(
      (list) => live && setTenants(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [picks, me, asked]);

  if (!picks) return <span className="tenant-name">{me.tenant.name}</span>;

  async function change(tenantId: string) {
    if (tenantId === me.tenant.id) return;
    setSwitching(true);
    try {
      await switchRequest(me, tenantId);
      window.location.assign("/");
    } catch {
      setSwitching(false);
    }
  }

  const listed = tenants ?? [];
  const options = listed.some((t) => t.id === me.tenant.id)
    ? listed
    : [{ id: me.tenant.id, name: me.tenant.name }, ...listed];
  return (
    <div className="tenant-switcher">
      <label htmlFor={`${id}-tenant`} className="visually-hidden">
        Tenant
      </label>
      <select
        id={`${id}-tenant`}
        value={me.tenant.id}
        disabled={switching}
        // A practice created since the page loaded is offered too.
        onFocus={() => setAsked((n) => n + 1)}
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

import { api } from "./client";
import { createStore, useStore } from "./store";
import { MULTI_TENANT, type ClientConfig, type Me, type UiAction } from "./types";

/** SPEC 9 constants, used until GET /api/config answers. */
export const DEFAULT_CONFIG: ClientConfig = {
  idleTimeoutSeconds: 1440,
  keepaliveIntervalSeconds: 300,
  keepaliveMinDelaySeconds: 10,
  defaultUrl: "/today",
  environment: "production",
};

const meStore = createStore<Me | null>(null);
let mePromise: Promise<Me> | undefined;
let configPromise: Promise<ClientConfig> | undefined;

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The user, tenant and grants the server put on `<body data-user data-tenant data-may>`, if it did. */
export function readBodyMe(body: HTMLElement = document.body): Me | undefined {
  const user = parseJson(body.dataset.user) as Me["user"] | undefined;
  const tenant = parseJson(body.dataset.tenant) as Me["tenant"] | undefined;
  const may = parseJson(body.dataset.may) as Me["may"] | undefined;
  if (
    user &&
    typeof user === "object" &&
    tenant &&
    typeof tenant === "object" &&
    may &&
    typeof may === "object"
  )
    return { user, tenant, may };
  return undefined;
}

/** The signed-in user: from the page body when present, else GET /api/users/me (a 401 goes to logout). */
export function loadMe(): Promise<Me> {
  const known = meStore.get();
  if (known) return Promise.resolve(known);
  const fromBody = readBodyMe();
  if (fromBody) {
    meStore.set(fromBody);
    return Promise.resolve(fromBody);
  }
  mePromise ??= api.get<Me>("/api/users/me").then(
    (me) => {
      meStore.set(me);
      return me;
    },
    (error: unknown) => {
      mePromise = undefined;
      throw error;
    },
  );
  return mePromise;
}

/** Replaces the current user (after an account edit or a tenant switch). */
export function setMe(me: Me | null): void {
  meStore.set(me);
  mePromise = undefined;
}

/** The current user, or null while unknown. */
export function useMe(): Me | null {
  return useStore(meStore);
}

/**
 * SPEC 4: a multi-tenant user whose tenant list lacks the current tenant must sign in again. A system
 * administrator visiting a practice they do not belong to is the exception: the server admits the visit
 * only while they hold that role.
 */
export function lacksCurrentTenant(me: Me): boolean {
  return me.user.tenant === MULTI_TENANT && !me.user.tenants.includes(me.tenant.id) && !me.may.visitTenants;
}

/** GET /api/config once per page; the SPEC 9 defaults when it fails. */
export function loadConfig(): Promise<ClientConfig> {
  configPromise ??= api
    .get<Partial<ClientConfig>>("/api/config", { handleErrors: true })
    .then((config) => ({ ...DEFAULT_CONFIG, ...config }))
    .catch(() => DEFAULT_CONFIG);
  return configPromise;
}

/** Whether the current user may do `action`, as the server's permission table says (`Me.may`). */
export function may(me: Me | null, action: UiAction): boolean {
  return me?.may[action] === true;
}

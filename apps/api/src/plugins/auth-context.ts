import type { AuthContext, TabletCredential, TeleAwvCredential } from "./auth.js";

/**
 * The staff session of a route the permission table opens to staff only; such a route never runs
 * without one.
 */
export function authOf(request: { auth: AuthContext | null }): AuthContext {
  if (request.auth === null)
    throw new Error("authOf used on a route the permission table does not limit to staff");
  return request.auth;
}

/** The tablet patient credential of a route the permission table opens to it alone. */
export function tabletOf(request: { tablet: TabletCredential | null }): TabletCredential {
  if (request.tablet === null)
    throw new Error("tabletOf used on a route not limited to the tablet credential");
  return request.tablet;
}

/** The Tele-AWV credential of a route the permission table opens to it alone. */
export function teleAwvOf(request: { teleAwv: TeleAwvCredential | null }): TeleAwvCredential {
  if (request.teleAwv === null)
    throw new Error("teleAwvOf used on a route not limited to the Tele-AWV token");
  return request.teleAwv;
}

/** The tenant of whatever credential the permission table admitted the request with. */
export function tenantOf(request: { credential: { tenantId: string } | null }): string {
  if (request.credential === null) throw new Error("tenantOf used on a route open to anyone");
  return request.credential.tenantId;
}

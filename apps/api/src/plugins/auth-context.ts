import type { AuthContext } from "./auth.js";

/** The auth context of a route guarded by `requireRole`; such a route never runs without one. */
export function authOf(request: { auth: AuthContext | null }): AuthContext {
  if (request.auth === null) throw new Error("authOf used on a route without requireRole");
  return request.auth;
}

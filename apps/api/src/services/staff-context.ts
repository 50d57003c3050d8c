// What a service is told of the staff member it acts for; plugins/auth.ts builds it for each request.

/** The signed-in staff member as the current request sees it. */
export interface AuthContext {
  userId: string;
  /** The session's current tenant. */
  tenantId: string;
  /** Role flags held in the current tenant. */
  roles: number;
  sid: string;
}

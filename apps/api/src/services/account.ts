import type { FastifyInstance, FastifyRequest } from "fastify";
import { eq } from "drizzle-orm";
import { Role, type Me, type UpdateMeRequest } from "@core-care/schema";
import { tenants, users } from "../db/schema.js";
import { fieldError, notFound, unauthorized } from "../errors.js";
import type { AuthContext } from "./staff-context.js";
import { audit } from "./audit.js";
import { setPassword } from "./password-reset.js";
import { grantSession, secondFactorRefusal } from "./session-grant.js";
import { passwordProblem, verifyPassword } from "./passwords.js";
import { membershipRoles } from "./sign-in.js";
import { throttled } from "./throttled.js";
import { contextWords, loadMe } from "./users.js";

/**
 * PUT /api/users/me: the current password, checked under the sign-in throttle, allows a new name and
 * optionally a new password (which ends the user's other sessions).
 */
export async function updateMe(
  app: FastifyInstance,
  auth: AuthContext,
  body: UpdateMeRequest,
  ip: string,
): Promise<Me> {
  const [row] = await app.db.select().from(users).where(eq(users.id, auth.userId));
  if (row === undefined) throw unauthorized();
  const proven = await throttled(app.loginThrottle, row.email, ip, () =>
    verifyPassword(body.currentPassword, row.passwordHash),
  );
  if (!proven) {
    await audit(app.db, {
      tenantId: auth.tenantId,
      userId: auth.userId,
      action: "login-failed",
      entity: "password",
      entityId: auth.userId,
      ip,
    });
    throw fieldError("currentPassword", "The current password is not correct.");
  }
  if (body.newPassword !== undefined) {
    const problem = passwordProblem(body.newPassword, {
      email: row.email,
      words: await contextWords(app.db, auth.userId),
    });
    if (problem !== undefined) throw fieldError("newPassword", problem);
  }
  await app.db
    .update(users)
    .set({ firstName: body.firstName, lastName: body.lastName, updatedAt: new Date() })
    .where(eq(users.id, auth.userId));
  if (body.newPassword !== undefined) await setPassword(app.db, auth.userId, body.newPassword, auth.sid);
  await audit(app.db, {
    tenantId: auth.tenantId,
    userId: auth.userId,
    action: "update",
    entity: body.newPassword === undefined ? "user" : "password",
    entityId: auth.userId,
    ip,
  });
  return loadMe(app.db, auth);
}

/**
 * Moves a staff session to another tenant under a new session id (the old id stops working) through the
 * second-factor rule, audited in both tenants, the one left and the one entered. `via` is the tenant where
 * a visiting sysAdmin holds that role; the session keeps it, and every request checks it again. The
 * session's sign-in time and its proof of a second factor go with it.
 */
async function moveSession(
  app: FastifyInstance,
  request: FastifyRequest,
  auth: AuthContext,
  target: { tenantId: string; roles: number; via?: string },
  refusedAs: "switch" | "visit",
): Promise<Me> {
  const { tenantId } = target;
  const outcome = await grantSession(app, request, {
    userId: auth.userId,
    ...target,
    factor: "session",
    signedInAt: request.session.get("createdAt"),
  });
  if (!outcome.granted) throw secondFactorRefusal(outcome.needs, refusedAs);
  for (const [tenant, direction] of [
    [auth.tenantId, "to"],
    [tenantId, "from"],
  ] as const) {
    await audit(app.db, {
      tenantId: tenant,
      userId: auth.userId,
      action: "switch-tenant",
      entity: "session",
      entityId: direction === "to" ? tenantId : auth.tenantId,
      ip: request.ip,
      details: {
        from: auth.tenantId,
        to: tenantId,
        ...(target.via === undefined ? {} : { asSysAdmin: true }),
      },
    });
  }
  return loadMe(app.db, { ...auth, tenantId, roles: target.roles });
}

/** PUT /api/users/me/tenant: a user of several tenants moves the session to another of them. */
export async function switchTenant(
  app: FastifyInstance,
  request: FastifyRequest,
  tenantId: string,
): Promise<Me> {
  const auth = request.auth;
  if (auth === null) throw unauthorized();
  const roles = await membershipRoles(app.db, auth.userId, tenantId);
  if (roles === undefined) throw notFound("Tenant");
  return moveSession(app, request, auth, { tenantId, roles }, "switch");
}

/**
 * POST /api/tenants/{id}/switch (sysAdmins, by the permission table): a system administrator moves the
 * session into any practice, to set it up or help it. In a practice they belong to they act with the
 * roles they hold there; in any other they act as sysAdmin for as long as they still hold that role in
 * the practice they came from (`sysAdminVia`, checked on every request), without becoming a member, so
 * the practice's user list does not change. Either way the practice's second-factor requirement holds.
 */
export async function enterTenantAsSysAdmin(
  app: FastifyInstance,
  request: FastifyRequest,
  tenantId: string,
): Promise<Me> {
  const auth = request.auth;
  if (auth === null) throw unauthorized();
  const [tenant] = await app.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId));
  if (tenant === undefined) throw notFound("Tenant");
  const roles = await membershipRoles(app.db, auth.userId, tenantId);
  if (roles !== undefined) return moveSession(app, request, auth, { tenantId, roles }, "switch");
  const via = request.session.get("sysAdminVia") ?? auth.tenantId;
  return moveSession(app, request, auth, { tenantId, roles: Role.sysAdmin, via }, "visit");
}

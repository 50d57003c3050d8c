import fp from "fastify-plugin";
import type { FastifyReply, FastifyRequest } from "fastify";
import { and, eq } from "drizzle-orm";
import { hasRole } from "@core-care/schema";
import type { Config } from "../config.js";
import type { Db } from "../db/index.js";
import { userTenants, users } from "../db/schema.js";
import { forbidden, unauthorized } from "../errors.js";
import type { AuditAction } from "../services/audit.js";
import type { AuthCache } from "../services/auth-cache.js";
import { audit } from "../services/audit.js";

/** The signed-in user as the current request sees it. */
export interface AuthContext {
  userId: string;
  /** The session's current tenant. */
  tenantId: string;
  /** Role flags held in the current tenant. */
  roles: number;
  sid: string;
}

declare module "fastify" {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** Writes an audit event for the signed-in user in the current tenant. */
    audit(action: AuditAction, entity: string, entityId?: string | null): Promise<void>;
  }
}

/** A session's last use is written back at most this often, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 5_000;

export type RequiredRole = "user" | "admin" | "sysAdmin";

/**
 * A preHandler that answers 401 without a live session and 403 without the role. `user` means any
 * signed-in role; an admin check also passes for sysAdmin, who manages every tenant (DESIGN.md).
 */
export function requireRole(role: RequiredRole) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const auth = request.auth;
    if (auth === null) throw unauthorized();
    if (auth.roles === 0) throw forbidden();
    if (role === "user") return;
    if (hasRole(auth.roles, "sysAdmin")) return;
    if (role === "admin" && hasRole(auth.roles, "admin")) return;
    throw forbidden();
  };
}

async function loadMembership(db: Db, cache: AuthCache, userId: string, tenantId: string) {
  const cached = cache.getMember(userId, tenantId);
  if (cached !== undefined) return cached;
  const stamp = cache.stamp();
  const rows = await db
    .select({ roles: userTenants.roles })
    .from(users)
    .innerJoin(userTenants, eq(userTenants.userId, users.id))
    .where(and(eq(users.id, userId), eq(userTenants.tenantId, tenantId)))
    .limit(1);
  const member = rows[0];
  if (member !== undefined) cache.putMember(userId, tenantId, member, stamp);
  return member;
}

/**
 * Resolves the session into `request.auth`, enforcing the idle timeout and the absolute lifetime on the
 * server: an expired session is destroyed and the request goes on unauthenticated.
 */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    const touchIntervalMs = Math.min(TOUCH_INTERVAL_MS, (config.idleTimeoutSeconds * 1000) / 10);
    app.decorateRequest("auth", null);
    app.decorateRequest("audit", async function (this: FastifyRequest, action, entity, entityId) {
      const auth = this.auth;
      if (auth === null) return;
      await audit(app.db, {
        tenantId: auth.tenantId,
        userId: auth.userId,
        action,
        entity,
        entityId,
        ip: this.ip,
      });
    });
    app.addHook("onRequest", async (request) => {
      const session = request.session;
      if (session === null || session === undefined) return;
      const { userId, tenantId, createdAt, lastSeenAt } = session;
      if (userId === undefined || tenantId === undefined) return;
      const now = Date.now();
      const idleExpired = lastSeenAt === undefined || now - lastSeenAt > config.idleTimeoutSeconds * 1000;
      const lifetimeOver = createdAt === undefined || now - createdAt > config.absoluteTimeoutSeconds * 1000;
      const member =
        idleExpired || lifetimeOver
          ? undefined
          : await loadMembership(app.db, app.authCache, userId, tenantId);
      if (member === undefined) {
        await session.destroy();
        return;
      }
      request.auth = { userId, tenantId, sid: session.sessionId, ...member };
      if (now - (lastSeenAt ?? 0) >= touchIntervalMs) {
        session.set("lastSeenAt", now);
        app.authCache.touched(session.sessionId, now);
      }
    });
  },
  { name: "auth", dependencies: ["db", "session"] },
);

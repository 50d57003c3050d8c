import fp from "fastify-plugin";
import type { FastifyRequest } from "fastify";
import { and, eq, sql } from "drizzle-orm";
import type { Config } from "../config.js";
import type { Db } from "../db/index.js";
import { hasRole, Role } from "@core-care/schema";
import { tenants, userTenants, users } from "../db/schema.js";
import type { AuditAction } from "../services/audit.js";
import type { AuthCache, Membership } from "../services/auth-cache.js";
import type { AuthContext } from "../services/staff-context.js";
import { audit, AuditWriter } from "../services/audit.js";
import { ENDED_FOR, factorRequiredFor, secondFactorRule, sessionProven } from "../services/session-grant.js";
import { endHandover, endIdleHandovers, findOpenHandover } from "../services/handovers.js";
import {
  resolveInvitationToken,
  type InvitationCredential,
  type SpentInvitation,
} from "../services/tele-awv-credential.js";

export type { AuthContext };

export interface StaffCredential extends AuthContext {
  kind: "staff";
}

/**
 * The tablet patient credential: a browser handed to one patient for one survey and one result. Its
 * session replaced the staff session of that browser at hand-over.
 */
export interface TabletCredential {
  kind: "tablet";
  tenantId: string;
  handoverId: string;
  patientId: string;
  surveyId: string;
  clientRequestId: string;
  resultId: string | null;
  /** Who handed the tablet over; only their password takes it back to staff work. */
  staffUserId: string;
  sid: string;
}

/** The token of a Tele-AWV invitation link, presented as `Authorization: Bearer <token>`. */
export interface TeleAwvCredential extends InvitationCredential {
  kind: "teleAwv";
}

/**
 * The token of a genuine Tele-AWV link that was used or has expired. Only a route whose table line has
 * `teleAwv: "link"` admits it, and only to say which of the two it is.
 */
export interface SpentLinkCredential extends SpentInvitation {
  kind: "spentLink";
}

export type Credential = StaffCredential | TabletCredential | TeleAwvCredential | SpentLinkCredential;

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Runs work after the answer has gone, so that its duration tells the caller nothing (a password
     * reset of a known e-mail against an unknown one). Failures are logged.
     */
    runAfterAnswer(name: string, work: () => Promise<void>): void;
    /** Resolves once all work started with `runAfterAnswer` has finished. */
    afterAnswerSettled(): Promise<void>;
  }
  interface FastifyRequest {
    /** The staff session, when the request carries one. */
    auth: AuthContext | null;
    /** The session's patient credential, when the browser was handed to a patient. */
    tablet: TabletCredential | null;
    /** The Tele-AWV link's credential, when the request carries a valid token. */
    teleAwv: TeleAwvCredential | null;
    /** The token of a used or expired Tele-AWV link, when the request carries one. */
    spentLink: SpentLinkCredential | null;
    /** True when the request presented a Tele-AWV token, valid or not. */
    presentedToken: boolean;
    /** Why the session this request came with was ended by the second-factor rule, for its 401. */
    sessionEndedFor: string | null;
    /** The credential the permission table admitted this request with (null on routes open to anyone). */
    credential: Credential | null;
    /** Writes an audit event for the request's credential in its tenant. */
    audit(
      action: AuditAction,
      entity: string,
      entityId?: string | null,
      details?: Record<string, unknown>,
    ): Promise<void>;
  }
}

/** A session's last use is written back at most this often, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 5_000;

async function loadMembership(
  db: Db,
  cache: AuthCache,
  userId: string,
  tenantId: string,
): Promise<Membership | undefined> {
  const cached = cache.getMember(userId, tenantId);
  if (cached !== undefined) return cached;
  const stamp = cache.stamp();
  const rows = await db
    .select({
      roles: userTenants.roles,
      secondFactor: sql<boolean>`${users.totpSecret} is not null`,
      factorRequired: sql<boolean>`coalesce((${tenants.settings} ->> 'requireAdminTotp')::boolean, false)`,
    })
    .from(users)
    .innerJoin(userTenants, eq(userTenants.userId, users.id))
    .innerJoin(tenants, eq(tenants.id, userTenants.tenantId))
    .where(and(eq(users.id, userId), eq(userTenants.tenantId, tenantId)))
    .limit(1);
  const member = rows[0];
  if (member !== undefined) cache.putMember(userId, tenantId, member, stamp);
  return member;
}

/**
 * The standing of a system administrator visiting a practice they do not belong to: they act as sysAdmin
 * there only while they hold that role in the practice they came from and the visited practice exists.
 * The visited practice is read every time (a removed practice ends the visit at once).
 */
async function loadVisit(
  db: Db,
  cache: AuthCache,
  userId: string,
  via: string,
  tenantId: string,
): Promise<Membership | undefined> {
  const home = await loadMembership(db, cache, userId, via);
  if (home === undefined || !hasRole(home.roles, "sysAdmin")) return undefined;
  const [visited] = await db
    .select({ settings: tenants.settings })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  if (visited === undefined) return undefined;
  return {
    roles: Role.sysAdmin,
    secondFactor: home.secondFactor,
    factorRequired: visited.settings.requireAdminTotp === true,
  };
}

/** The bearer token of an `Authorization` header, if any. */
function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer\s+(\S+)$/.exec(header.trim());
  return match?.[1];
}

/** The user and tenant of any credential, for audit events. */
export function actorOf(request: FastifyRequest): { tenantId: string; userId: string | null } | null {
  const credential = request.credential ?? request.auth ?? request.tablet ?? request.teleAwv;
  if (credential === null) return null;
  return { tenantId: credential.tenantId, userId: "userId" in credential ? credential.userId : null };
}

/**
 * Resolves the request's credentials: the session cookie into a staff session (`request.auth`) or a
 * tablet patient credential (`request.tablet`), and a bearer token into a Tele-AWV credential. Idle
 * timeout and absolute lifetime are enforced here on the server: an expired session is destroyed and the
 * request goes on without it. Whether the route admits what was found is `plugins/access.ts`'s call.
 */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    const touchIntervalMs = Math.min(TOUCH_INTERVAL_MS, (config.idleTimeoutSeconds * 1000) / 10);
    const running = new Set<Promise<void>>();
    app.decorate("runAfterAnswer", (name: string, work: () => Promise<void>) => {
      const task = new Promise<void>((resolve) => setImmediate(resolve))
        .then(work)
        .catch((err: unknown) =>
          app.log.error({ err: { message: (err as Error).message } }, `${name} failed`),
        )
        .finally(() => running.delete(task));
      running.add(task);
    });
    app.decorate("afterAnswerSettled", async () => {
      while (running.size > 0) await Promise.all(running);
    });
    app.addHook("onClose", async () => app.afterAnswerSettled());
    // Hand-overs whose browser went quiet end (audited) within a minute of their session expiring, even
    // if that browser never calls again; old throttle counters go.
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
      endIdleHandovers(app.db).catch((err: unknown) =>
        app.log.warn({ err: { message: (err as Error).message } }, "ending idle hand-overs failed"),
      );
      if (ticks % 60 === 0) {
        app.loginThrottle
          .prune()
          .catch((err: unknown) =>
            app.log.warn({ err: { message: (err as Error).message } }, "throttle prune failed"),
          );
      }
    }, 60_000);
    timer.unref();
    app.addHook("onClose", async () => clearInterval(timer));
    app.decorateRequest("auth", null);
    app.decorateRequest("tablet", null);
    app.decorateRequest("teleAwv", null);
    app.decorateRequest("spentLink", null);
    app.decorateRequest("credential", null);
    app.decorateRequest("presentedToken", false);
    app.decorateRequest("sessionEndedFor", null);
    const auditWriter = new AuditWriter(app.database.execute);
    app.decorateRequest("audit", async function (this: FastifyRequest, action, entity, entityId, details) {
      const actor = actorOf(this);
      if (actor === null) return;
      await auditWriter.write({ ...actor, action, entity, entityId, ip: this.ip, details });
    });
    app.addHook("onRequest", async (request) => {
      const token = bearerToken(request);
      if (token !== undefined) {
        request.presentedToken = true;
        const resolved = /^[A-Za-z0-9_-]{32,128}$/.test(token)
          ? await resolveInvitationToken(app.db, token)
          : { kind: "unknown" as const };
        if (resolved.kind === "open") request.teleAwv = { kind: "teleAwv", ...resolved.credential };
        else if (resolved.kind === "spent") request.spentLink = { kind: "spentLink", ...resolved.spent };
      }

      const session = request.session;
      if (session === null || session === undefined) return;
      const { userId, tenantId, handoverId, createdAt, lastSeenAt, idleGraceSeconds, sysAdminVia } = session;
      if (tenantId === undefined || (userId === undefined && handoverId === undefined)) return;
      const now = Date.now();
      const idleMs = (config.idleTimeoutSeconds + (idleGraceSeconds ?? 0)) * 1000;
      const idleExpired = lastSeenAt === undefined || now - lastSeenAt > idleMs;
      const lifetimeOver = createdAt === undefined || now - createdAt > config.absoluteTimeoutSeconds * 1000;
      if (idleExpired || lifetimeOver) {
        await session.destroy();
        if (handoverId !== undefined) {
          await endHandover(app.db, { tenantId, handoverId }, "idle", { userId: null, ip: request.ip });
        }
        return;
      }
      if (handoverId !== undefined) {
        const handover = await findOpenHandover(app.db, tenantId, handoverId);
        if (handover === undefined) {
          await session.destroy();
          return;
        }
        request.tablet = { kind: "tablet", ...handover, sid: session.sessionId };
      } else if (userId !== undefined) {
        const member =
          sysAdminVia === undefined
            ? await loadMembership(app.db, app.authCache, userId, tenantId)
            : await loadVisit(app.db, app.authCache, userId, sysAdminVia, tenantId);
        if (member === undefined) {
          await session.destroy();
          return;
        }
        // The second-factor rule holds for as long as the session lasts: a practice that turned its
        // requirement on, a role raised to admin there, or a factor turned on in another session ends a
        // session that has not proven one, here, on every server (services/session-grant.ts).
        const decision = secondFactorRule({
          enabled: member.secondFactor,
          proven: sessionProven(session),
          required: factorRequiredFor(member.roles, member.factorRequired),
        });
        if (decision !== "admit") {
          await session.destroy();
          request.sessionEndedFor = ENDED_FOR[decision];
          await audit(app.db, {
            tenantId,
            userId,
            action: "logout",
            entity: "session",
            ip: request.ip,
            details: { reason: decision === "code" ? "second-factor-code" : "second-factor-required" },
          });
          return;
        }
        request.auth = { userId, tenantId, sid: session.sessionId, roles: member.roles };
      }
      if (now - (lastSeenAt ?? 0) >= touchIntervalMs) {
        session.set("lastSeenAt", now);
        app.authCache.touched(session.sessionId, now);
      }
    });
  },
  { name: "auth", dependencies: ["db", "session"] },
);

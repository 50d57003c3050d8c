import type { FastifyInstance, FastifyRequest, Session } from "fastify";
import { and, eq, inArray, sql } from "drizzle-orm";
import { Role } from "@core-care/schema";
import type { DbOrTx } from "../db/index.js";
import { sessions, tenants, userTenants, users } from "../db/schema.js";
import { AppError, fieldError, unauthorized } from "../errors.js";
import { PERMISSIONS, routeKey, type Permission, type SessionWay } from "../permissions.js";
import { totpRequired, verifyCode } from "./totp.js";

/**
 * Every way a session gains a practice or a role passes through this module, and only this module
 * writes who a session is (its user, practice and visit, or its patient hand-over): signing in, a
 * member's practice switch, a system administrator's visit, the tablet's Staff button, and the hand-over.
 * Each such route names its way in the permission table (`session`); a session changed by any other
 * route, or by one that skipped this module, is ended as the answer goes (plugins/session.ts).
 *
 * The second-factor rule ({@link secondFactorRule}) is applied here to every way in, and by the auth
 * plugin to every request, so a session that no longer meets it (a practice turned the requirement on,
 * a role was raised, the user turned a factor on elsewhere) ends at its next request on every server.
 */

/** What the rule knows of a session about to act in a practice. */
export interface FactorStanding {
  /** The user has a second factor turned on. */
  enabled: boolean;
  /** This session gave a code of it, here or earlier (sign-in, setting it up, the Staff button). */
  proven: boolean;
  /** A practice the session reaches requires a second factor of this user (admin or sysAdmin there). */
  required: boolean;
}

/** Admit the session, ask for a code of the user's second factor, or have the user set one up first. */
export type FactorDecision = "admit" | "code" | "enrol";

/**
 * The second-factor rule: a user who has one gives a code of it before a session acts for them; a user
 * who has none, where a practice requires one of them, sets it up first. Never a session that lacks what
 * the user's standing requires: no way in downgrades a role in its place, since a half-admin session
 * would be a state every screen had to explain, and signing in always offers to set the factor up.
 */
export function secondFactorRule(standing: FactorStanding): FactorDecision {
  if (standing.enabled) return standing.proven ? "admit" : "code";
  return standing.required ? "enrol" : "admit";
}

/** Whether a practice's `requireAdminTotp` covers these roles: admins and sysAdmins. */
export function factorRequiredFor(roles: number, requireAdminTotp: boolean): boolean {
  return requireAdminTotp && (roles & (Role.admin | Role.sysAdmin)) !== 0;
}

/** Whether a session has proven its user's second factor. */
export const sessionProven = (session: Session): boolean => typeof session.secondFactorAt === "number";

/**
 * Who a session is: a staff user in a practice (and the practice a visit came from), a tablet's patient
 * hand-over, or undefined for neither (signed out, or a sign-in waiting for its second step).
 */
export function sessionIdentity(session: Session | null | undefined): string | undefined {
  if (session === null || session === undefined) return undefined;
  const { userId, tenantId, sysAdminVia, handoverId } = session;
  if (tenantId === undefined) return undefined;
  if (handoverId !== undefined) return `hand-over\0${tenantId}\0${handoverId}`;
  if (userId === undefined) return undefined;
  return `staff\0${userId}\0${tenantId}\0${sysAdminVia ?? ""}`;
}

/**
 * The identity this module gave the session during a request. Module-private: nothing else can vouch for
 * a session, so the check as the answer goes (plugins/session.ts) catches any other writer.
 */
const given = new WeakMap<FastifyRequest, string>();

/** The identity this module gave the request's session, if it gave one. */
export function identityGiven(request: FastifyRequest): string | undefined {
  return given.get(request);
}

/** The answer to a way in over plain HTTP in production (docs/api.md). */
export const HTTPS_REQUIRED =
  "Signing in needs a secure connection (HTTPS): the session cookie is only given over HTTPS. " +
  "Open the portal at its https:// address.";

/**
 * Refuses to give a session to a request that came over plain HTTP in production: its Secure cookie
 * would not be sent, and the answer would look like a sign-in that worked while the browser stays signed
 * out. Behind a TLS proxy (TRUST_PROXY) the protocol is the one its X-Forwarded-Proto names.
 */
export function assertSessionTransport(request: FastifyRequest): void {
  if (request.server.config.nodeEnv === "production" && request.protocol !== "https") {
    throw new AppError(403, "HTTPS_REQUIRED", HTTPS_REQUIRED);
  }
}

/** The way in the route of this request names in the permission table. */
function declaredWay(request: FastifyRequest): SessionWay {
  const key = routeKey(request) ?? request.url;
  const way = (PERMISSIONS as Record<string, Permission>)[key]?.session;
  // A programming error, never a user's: a route gives a session without saying it is a way in.
  if (way === undefined) throw new Error(`${key} gives a session, but its permission entry names no way in`);
  return way;
}

export interface SessionGrant {
  userId: string;
  tenantId: string;
  /** The roles the session acts with there: the membership's, or sysAdmin for a visit. */
  roles: number;
  /** A system administrator visiting a practice they do not belong to: where they hold that role. */
  via?: string;
  /**
   * What proves the second factor on this way: a code given with it, a factor set up in this request,
   * whatever the session it moves proved before (a practice switch), or nothing but the password.
   */
  factor: { code: string } | "enrolled" | "session" | "none";
  /** When the staff member signed in, for a way that keeps an earlier sign-in's absolute lifetime. */
  signedInAt?: number | undefined;
}

export type GrantOutcome =
  { granted: true; factor: "totp" | "recovery" | undefined } | { granted: false; needs: "code" | "enrol" };

/**
 * The one way a session is given a practice and its roles: applies the second-factor rule to `grant` and,
 * when it admits, moves the browser to a new session id (session fixation) holding that practice. A code
 * given is checked (throttled and audited, a wrong one a 400 naming `code`) only for a user who has a
 * factor. When the rule does not admit, the session is left as it was and the caller says what is needed.
 */
export async function grantSession(
  app: FastifyInstance,
  request: FastifyRequest,
  grant: SessionGrant,
): Promise<GrantOutcome> {
  const way = declaredWay(request);
  if (way === "hand-over") throw new Error("a hand-over gives a patient credential, not a staff session");
  assertSessionTransport(request);
  const [user] = await app.db
    .select({ enabled: sql<boolean>`${users.totpSecret} is not null` })
    .from(users)
    .where(eq(users.id, grant.userId));
  if (user === undefined) throw unauthorized();
  // Signing in is where a missing factor is set up, so it asks for one wherever the user is an admin of
  // a practice that requires it: a switch there afterwards would be refused.
  const required =
    way === "sign-in"
      ? await totpRequired(app.db, grant.userId)
      : factorRequiredFor(grant.roles, await practiceRequiresFactor(app.db, grant.tenantId));
  let provenAt: number | undefined;
  let used: "totp" | "recovery" | undefined;
  if (grant.factor === "session") {
    provenAt = request.session.get("secondFactorAt");
  } else if (grant.factor === "enrolled") {
    provenAt = Date.now();
  } else if (grant.factor !== "none" && user.enabled) {
    used = await verifyCode(
      app,
      {
        userId: grant.userId,
        tenantId: grant.tenantId,
        ip: request.ip,
        purpose: way === "staff-return" ? "staff-return" : "sign-in",
      },
      grant.factor.code,
    );
    provenAt = Date.now();
  }
  const decision = secondFactorRule({ enabled: user.enabled, proven: provenAt !== undefined, required });
  if (decision !== "admit") return { granted: false, needs: decision };

  await request.session.regenerate();
  const now = Date.now();
  request.session.set("userId", grant.userId);
  request.session.set("tenantId", grant.tenantId);
  if (grant.via !== undefined) request.session.set("sysAdminVia", grant.via);
  if (provenAt !== undefined) request.session.set("secondFactorAt", provenAt);
  request.session.set("createdAt", grant.signedInAt ?? now);
  request.session.set("lastSeenAt", now);
  given.set(request, sessionIdentity(request.session) ?? "");
  return { granted: true, factor: used };
}

/**
 * Hands the browser to a patient: the staff session ends (its row goes) and a new id carries only the
 * patient credential of `handover`. It holds no practice role; the way back is the Staff button, which
 * passes the rule again.
 */
export async function handOverSession(
  request: FastifyRequest,
  handover: { tenantId: string; handoverId: string; idleGraceSeconds: number },
): Promise<void> {
  if (declaredWay(request) !== "hand-over") throw new Error("a patient credential is given by a hand-over");
  const staffCreatedAt = request.session.get("createdAt");
  await request.session.regenerate();
  const now = Date.now();
  request.session.set("tenantId", handover.tenantId);
  request.session.set("handoverId", handover.handoverId);
  request.session.set("idleGraceSeconds", handover.idleGraceSeconds);
  request.session.set("staffCreatedAt", staffCreatedAt ?? now);
  request.session.set("createdAt", now);
  request.session.set("lastSeenAt", now);
  given.set(request, sessionIdentity(request.session) ?? "");
}

/**
 * A sign-in whose password was right and which waits for its second step: the session holds no practice
 * (the auth plugin admits it nowhere but those steps) under a new id.
 */
export async function holdPendingSignIn(request: FastifyRequest, userId: string): Promise<void> {
  await request.session.regenerate();
  request.session.set("pendingUserId", userId);
  request.session.set("pendingAt", Date.now());
}

/**
 * Records, and saves at once, that the session has just proven its user's second factor (it was set up
 * in this session).
 */
export async function markSecondFactor(request: FastifyRequest): Promise<void> {
  request.session.set("secondFactorAt", Date.now());
  await request.session.save();
}

/** Whether a practice requires a second factor of its admins (`requireAdminTotp`). */
export async function practiceRequiresFactor(db: DbOrTx, tenantId: string): Promise<boolean> {
  const [row] = await db.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.settings.requireAdminTotp === true;
}

/** Why a session was ended by the rule, for the 401 its next request answers. */
export const ENDED_FOR: Record<Exclude<FactorDecision, "admit">, string> = {
  code: "Your account has a second factor. Please sign in again with its code.",
  enrol: "Your practice requires a second factor for administrators. Please sign in again to set it up.",
};

/** The code field's answer when a way in needs the code the user has not given. */
export const CODE_NEEDED = "Enter the 6-digit code your authenticator app shows now, or a recovery code.";

/**
 * The refusal of a way in the rule did not admit. A missing code is a 400 naming `code`, for the form to
 * ask for it; a factor to set up first is a 403 saying where: signing in offers it wherever the user is an
 * admin of a practice that requires it, and a visiting sysAdmin sets it up on their account page.
 */
export function secondFactorRefusal(needs: "code" | "enrol", where: keyof typeof SET_UP_FIRST): AppError {
  if (needs === "code") return fieldError("code", CODE_NEEDED);
  return new AppError(403, "TOTP_REQUIRED", SET_UP_FIRST[where]);
}

/** Where a user refused for want of a second factor sets one up, by the way they came. */
export const SET_UP_FIRST = {
  switch:
    "This practice requires a second factor of its administrators. Sign out and sign in again to set yours up.",
  visit:
    "This practice requires a second factor of its administrators. Turn yours on from your account page first.",
  tablet:
    "Your practice requires a second factor for administrators. Log out and sign in again to set it up.",
} as const;

/**
 * Ends the open sessions in a practice that the rule no longer admits, as the practice turns its
 * requirement on: its admins' and visiting sysAdmins' sessions that have not proven a second factor.
 * Removing the rows tells every server at once (their caches hear it); answers how many ended.
 */
export async function endSessionsRefusedIn(db: DbOrTx, tenantId: string): Promise<number> {
  const open = await db
    .select({
      sid: sessions.sid,
      sess: sessions.sess,
      enabled: sql<boolean>`${users.totpSecret} is not null`,
      roles: userTenants.roles,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(userTenants, and(eq(userTenants.userId, users.id), eq(userTenants.tenantId, tenantId)))
    .where(sql`${sessions.sess} ->> 'tenantId' = ${tenantId}`);
  const required = await practiceRequiresFactor(db, tenantId);
  const refused = open
    .filter(({ sess, enabled, roles }) => {
      const session = sess as unknown as Session;
      if (session.handoverId !== undefined) return false;
      const held = session.sysAdminVia === undefined ? (roles ?? 0) : Role.sysAdmin;
      const standing = {
        enabled,
        proven: sessionProven(session),
        required: factorRequiredFor(held, required),
      };
      return secondFactorRule(standing) !== "admit";
    })
    .map((row) => row.sid);
  if (refused.length > 0) await db.delete(sessions).where(inArray(sessions.sid, refused));
  return refused.length;
}

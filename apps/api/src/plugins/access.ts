import { timingSafeEqual } from "node:crypto";
import fp from "fastify-plugin";
import type { FastifyRequest, RouteOptions } from "fastify";
import { eq } from "drizzle-orm";
import { hasRole } from "@core-care/schema";
import { TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import type { Db } from "../db/index.js";
import { tenants } from "../db/schema.js";
import { AppError, forbidden, unauthorized } from "../errors.js";
import { audit, NO_TENANT } from "../services/audit.js";
import { INVALID_INVITATION } from "../services/tele-awv.js";
import { PERMISSIONS, routeKey, type Permission, type PatientScope, type UserGrant } from "../permissions.js";
import {
  actorOf,
  type Credential,
  type SpentLinkCredential,
  type TabletCredential,
  type TeleAwvCredential,
} from "./auth.js";

/** The same refusal of the same caller is audited at most this often. */
const REFUSAL_AUDIT_MS = 10_000;

declare module "fastify" {
  interface FastifyInstance {
    /**
     * The permission table keys of every route registered, HEAD under its GET: what the permission
     * test compares with the table, so that a route missing from it cannot go unnoticed.
     */
    routeKeys(): Set<string>;
  }
  interface FastifyContextConfig {
    /**
     * The permission table entry of a route whose path is not its key, such as the files of the web
     * build (`GET web-file`). Other routes are found by their method and path.
     */
    permission?: string;
  }
}

/** The table keys of a registered route, one per method (HEAD under its GET). */
function keysOf(route: RouteOptions): string[] {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const permission = route.config?.permission;
  return methods.map((method) => permission ?? `${method === "HEAD" ? "GET" : method} ${route.url}`);
}

/** True when the request's route is an API route, judged on the route the router matched. */
export function isApiRoute(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith("/api/") === true;
}

async function usersMay(db: Db, tenantId: string, grant: UserGrant): Promise<boolean> {
  const [row] = await db.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.settings.usersMay?.[grant] === true;
}

/** Whether the request's `Authorization: Bearer` is `token` (compared in constant time). */
function presentsToken(request: FastifyRequest, token: string | undefined): boolean {
  const header = request.headers.authorization;
  if (token === undefined || typeof header !== "string") return false;
  const presented = Buffer.from(header.trim().replace(/^Bearer\s+/, ""));
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

const refuse = (status: 401 | 403) => (status === 401 ? unauthorized() : forbidden());

/**
 * Which of the request's credentials the entry admits; throws 401 without any credential the entry
 * could admit, 403 with one it does not.
 */
async function admit(
  db: Db,
  permission: Permission,
  request: FastifyRequest,
  scrapeToken: string | undefined,
): Promise<Credential | null> {
  if (permission.anyone === true)
    return request.auth === null ? request.tablet : { kind: "staff", ...request.auth };
  // The scraper's token stands for no user and no practice: it admits, and carries no credential.
  if (permission.scrapeToken === true && presentsToken(request, scrapeToken)) return null;
  if (permission.teleAwv !== undefined) {
    if (request.teleAwv !== null) return request.teleAwv;
    // Only the route that says what state a link is in admits a used or expired one.
    if (permission.teleAwv === "link" && request.spentLink !== null) return request.spentLink;
    // Elsewhere a forged, used or expired link is refused with one message whatever the reason.
    if (request.presentedToken) throw new AppError(403, "INVALID_INVITATION", INVALID_INVITATION);
  }
  if (request.tablet !== null) {
    if (permission.tablet !== undefined) return request.tablet;
    throw refuse(403);
  }
  const auth = request.auth;
  if (auth === null && request.teleAwv === null) throw unauthorized(request.sessionEndedFor ?? undefined);
  if (auth === null) throw refuse(403);
  const roles = permission.staff ?? [];
  if (roles.some((role) => hasRole(auth.roles, role))) return { kind: "staff", ...auth };
  if (
    permission.usersIf !== undefined &&
    hasRole(auth.roles, "user") &&
    (await usersMay(db, auth.tenantId, permission.usersIf))
  ) {
    return { kind: "staff", ...auth };
  }
  throw refuse(403);
}

/** Whether a patient credential's request stays within what it was handed (checked once the body is read). */
function withinScope(
  scope: PatientScope,
  credential: TabletCredential | TeleAwvCredential | SpentLinkCredential,
  request: FastifyRequest,
) {
  // A spent link reaches only the route that says it is spent.
  if (credential.kind === "spentLink") return scope === "link";
  switch (scope) {
    case "self":
    case "link":
      return true;
    case "survey": {
      const id = (request.params as { id?: unknown }).id;
      return credential.kind === "tablet" ? id === credential.surveyId : id === TELE_AWV_SURVEY_ID;
    }
    case "result": {
      if (credential.kind !== "tablet") return false;
      const body = request.body as {
        id?: unknown;
        patientId?: unknown;
        surveyId?: unknown;
        clientRequestId?: unknown;
      };
      return (
        body.patientId === credential.patientId &&
        body.surveyId === credential.surveyId &&
        body.clientRequestId === credential.clientRequestId &&
        (body.id === undefined || (credential.resultId !== null && body.id === credential.resultId))
      );
    }
  }
}

/**
 * Enforces the permission table (`src/permissions.ts`) on the route the router matched: a route with no
 * entry is refused; a credential the entry does not admit answers 403, none at all 401. A patient
 * credential is then held to its scope once the body has been read.
 */
export default fp(
  async (app) => {
    // Kept as registered and read late: a plugin's own onRoute hook may still set the route's permission.
    const routes: RouteOptions[] = [];
    app.addHook("onRoute", (route) => {
      routes.push(route);
    });
    app.decorate("routeKeys", () => new Set(routes.flatMap(keysOf)));

    const recentRefusals = new Map<string, number>();
    /**
     * Audits a refusal in the tenant of whatever credential the request carried (with no tenant for none).
     * The same refusal of the same caller is written at most once per REFUSAL_AUDIT_MS, so a client
     * retrying, or someone hammering a route, cannot flood the table.
     */
    const auditRefusal = async (request: FastifyRequest, key: string, error: AppError) => {
      const actor = actorOf(request);
      const dedupe = `${actor?.tenantId ?? ""} ${actor?.userId ?? request.tablet?.handoverId ?? ""} ${request.ip} ${key} ${error.statusCode}`;
      const now = Date.now();
      if ((recentRefusals.get(dedupe) ?? 0) > now - REFUSAL_AUDIT_MS) return;
      if (recentRefusals.size >= 10_000) recentRefusals.clear();
      recentRefusals.set(dedupe, now);
      const kind =
        request.tablet !== null
          ? "tablet"
          : request.auth !== null
            ? "staff"
            : request.teleAwv !== null
              ? "teleAwv"
              : "none";
      await audit(app.db, {
        tenantId: actor?.tenantId ?? NO_TENANT,
        userId: actor?.userId ?? null,
        action: "denied",
        entity: "route",
        entityId: key,
        ip: request.ip,
        details: { status: error.statusCode, credential: kind },
      });
    };

    const refused = async (request: FastifyRequest, key: string, error: AppError): Promise<never> => {
      await auditRefusal(request, key, error);
      throw error;
    };

    app.addHook("onRequest", async (request) => {
      const key = routeKey(request);
      if (key === undefined) return;
      const permission = (PERMISSIONS as Record<string, Permission>)[key];
      if (permission === undefined) {
        request.log.error({ route: key }, "route has no permission entry; refused");
        return refused(request, key, forbidden());
      }
      try {
        request.credential = await admit(app.db, permission, request, app.config.metricsToken);
      } catch (error) {
        if (error instanceof AppError) return refused(request, key, error);
        throw error;
      }
    });

    app.addHook("preHandler", async (request) => {
      const credential = request.credential;
      if (credential === null || credential.kind === "staff") return;
      const key = routeKey(request);
      const permission = key === undefined ? undefined : (PERMISSIONS as Record<string, Permission>)[key];
      if (key === undefined || permission === undefined || permission.anyone === true) return;
      const scope = credential.kind === "tablet" ? permission.tablet : permission.teleAwv;
      if (scope === undefined || !withinScope(scope, credential, request))
        await refused(request, key, forbidden());
    });
  },
  { name: "access", dependencies: ["auth"] },
);

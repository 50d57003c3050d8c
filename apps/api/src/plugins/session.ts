import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import fastifyCookie from "@fastify/cookie";
import fastifySession from "@fastify/session";
import type { Config } from "../config.js";
import { errorBody, GENERIC_500 } from "./error-handler.js";
import { identityGiven, sessionIdentity } from "../services/session-grant.js";
import { AUTH_CHANNEL, AuthCache } from "../services/auth-cache.js";
import { PgSessionStore } from "../services/session-store.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Sessions and memberships this process has read, forgotten when PostgreSQL says they changed. */
    authCache: AuthCache;
    /** The session cookie's name (see {@link sessionCookieName}). */
    sessionCookieName: string;
  }
  interface FastifyReply {
    /**
     * Clears the session cookie with the attributes it was set with: a browser ignores a `__Host-`
     * cookie's clearing that lacks `Secure`.
     */
    clearSessionCookie(): FastifyReply;
  }
  interface Session {
    userId?: string;
    tenantId?: string;
    /** Epoch ms of sign-in; the absolute lifetime counts from here. */
    createdAt?: number;
    /** Epoch ms of the last real use; the idle timeout counts from here. */
    lastSeenAt?: number;
    /** A tablet patient credential: the hand-over it is bound to (no staff user then). */
    handoverId?: string;
    /** Seconds a tablet patient session lasts past the idle timeout (see PgSessionStore.set). */
    idleGraceSeconds?: number;
    /** Sign-in time of the staff session a hand-over replaced; the Staff button's return keeps it. */
    staffCreatedAt?: number;
    /** A sign-in waiting for its second factor: the user whose password was right, and when. */
    pendingUserId?: string;
    pendingAt?: number;
    /**
     * A system administrator visiting a practice they do not belong to: the tenant where they hold the
     * sysAdmin role, checked on every request (auth plugin).
     */
    sysAdminVia?: string;
    /** Epoch ms this session proved its user's second factor; kept across practice switches. */
    secondFactorAt?: number;
  }
}

/**
 * Name of the session cookie (docs/api.md). In production it is `__Host-sid`: the browser then keeps it
 * only if it is Secure, has Path=/ and no Domain, so neither a sibling subdomain nor a plain-HTTP page can
 * set or overwrite it (RFC 6265bis 4.1.3.2). Development and tests run on plain-HTTP loopback as `sid`.
 */
export function sessionCookieName(nodeEnv: Config["nodeEnv"]): string {
  return nodeEnv === "production" ? "__Host-sid" : "sid";
}

/** Removes from the answer's Set-Cookie header the cookie `name` set to any of `values`. */
function dropSetCookie(reply: FastifyReply, name: string, values: string[]): void {
  const header = reply.getHeader("set-cookie");
  if (header === undefined) return;
  const cookies = Array.isArray(header) ? header : [String(header)];
  const kept = cookies.filter((cookie) => {
    // Each is `name=value; attributes`, the value URL-encoded where a cookie could not hold it as it is.
    const pair = cookie.split(";", 1)[0] ?? "";
    const equals = pair.indexOf("=");
    if (pair.slice(0, equals) !== name) return true;
    const value = safeDecode(pair.slice(equals + 1));
    return value === undefined || !values.includes(value);
  });
  if (kept.length === cookies.length) return;
  reply.removeHeader("set-cookie");
  if (kept.length > 0) reply.header("set-cookie", kept);
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Cookie sessions stored in PostgreSQL; a session exists only once someone signs in. */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    const cache = new AuthCache({ maxEntries: 50_000, maxAgeMs: 60_000 });
    const unlisten = await app.database.listen(AUTH_CHANNEL, cache);
    app.addHook("onClose", async () => unlisten());
    app.decorate("authCache", cache);
    const store = new PgSessionStore(
      app.db,
      { idleSeconds: config.idleTimeoutSeconds, absoluteSeconds: config.absoluteTimeoutSeconds },
      cache,
    );
    const cookieName = sessionCookieName(config.nodeEnv);
    // Plain-HTTP loopback in development and tests; Secure everywhere else. No Domain, ever.
    const cookie = {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: config.nodeEnv === "production",
    } as const;
    app.decorate("sessionCookieName", cookieName);
    app.decorateReply("clearSessionCookie", function (this: FastifyReply) {
      return this.clearCookie(cookieName, cookie);
    });
    // Who each request's session was as it arrived, for the check as the answer goes.
    const arrived = new WeakMap<FastifyRequest, string | undefined>();
    // Registered before the session plugin's own hook, which saves the session: a session whose user,
    // practice or hand-over changed other than through services/session-grant.ts (which applies the
    // second-factor rule) is ended before it is saved or its cookie set, and the answer is a 500, since
    // only a route's own mistake gets here.
    app.addHook("onSend", async (request, reply, payload) => {
      // A request whose hooks stopped before its session was read ran no handler.
      if (!arrived.has(request)) return payload;
      const now = sessionIdentity(request.session);
      if (now === undefined || now === arrived.get(request) || now === identityGiven(request)) return payload;
      request.log.error(
        { route: request.routeOptions.url },
        "a session was given a user, practice or hand-over outside services/session-grant.ts; ended",
      );
      await request.session.destroy();
      reply.code(500).header("content-type", "application/json; charset=utf-8");
      return JSON.stringify(errorBody(500, GENERIC_500));
    });
    await app.register(fastifyCookie);
    await app.register(fastifySession, {
      secret: config.sessionSecret,
      cookieName,
      store,
      saveUninitialized: false,
      rolling: false,
      cookie,
    });
    // The session cookie is set by an answer that gives the browser a session, a new id or none (a route
    // that ends the session clears the cookie itself), never by one that only used the session it came
    // with: that answer may reach the browser after one that gave it a new session (a practice switch, a
    // hand-over) and would undo it. So a request that kept its session does not send the cookie back when
    // it saved the session (its last use), nor clear it when the session was not found (an id that has
    // just been replaced). Registered after the session plugin, so its cookie is written by now.
    app.addHook("onRequest", async (request) => {
      arrived.set(request, sessionIdentity(request.session));
    });
    app.addHook("onSend", async (request, reply) => {
      const held = request.cookies[cookieName];
      if (held !== undefined && request.session !== null) dropSetCookie(reply, cookieName, [held, ""]);
    });
    const timer = setInterval(
      () => {
        store.prune().catch((err: unknown) => app.log.warn({ err }, "session prune failed"));
      },
      10 * 60 * 1000,
    );
    timer.unref();
    app.addHook("onClose", async () => clearInterval(timer));
  },
  { name: "session", dependencies: ["db"] },
);

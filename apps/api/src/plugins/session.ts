import fp from "fastify-plugin";
import fastifyCookie from "@fastify/cookie";
import fastifySession from "@fastify/session";
import type { Config } from "../config.js";
import { AUTH_CHANNEL, AuthCache } from "../services/auth-cache.js";
import { PgSessionStore } from "../services/session-store.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Sessions and memberships this process has read, forgotten when PostgreSQL says they changed. */
    authCache: AuthCache;
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
  }
}

/** Name of the session cookie (docs/api.md). */
export const SESSION_COOKIE = "sid";

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
    await app.register(fastifyCookie);
    await app.register(fastifySession, {
      secret: config.sessionSecret,
      cookieName: SESSION_COOKIE,
      store,
      saveUninitialized: false,
      rolling: false,
      cookie: {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        // Plain-HTTP loopback in development and tests; Secure everywhere else.
        secure: config.nodeEnv === "production",
      },
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

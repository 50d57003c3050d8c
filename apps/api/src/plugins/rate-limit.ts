import fp from "fastify-plugin";
import rateLimit from "@fastify/rate-limit";
import type { FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import { isApiRoute } from "./access.js";
import { sharedRateLimitStore } from "../services/shared-rate-limit.js";

/** Whose budget a request spends: its staff user, its tablet hand-over, else its address. */
export const callerKey = (request: FastifyRequest): string =>
  request.auth !== null
    ? `user:${request.auth.userId}`
    : request.tablet !== null
      ? `tablet:${request.tablet.handoverId}`
      : `ip:${request.ip}`;

/**
 * A coarse per-caller limit on the API: per staff user, per tablet hand-over, per address otherwise.
 * Keyed by user after sign-in so that staff sharing one clinic address do not share one budget; judged
 * on the route the router matched, never the raw URL, before any other check so that refused requests
 * count too. Sign-in has its own throttle.
 */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    // On a server, every API process shares each caller's count; PGlite's one process keeps it in memory.
    const shared = app.database.kind === "postgres" ? sharedRateLimitStore(app.db) : undefined;
    if (shared !== undefined) app.addHook("onClose", async () => shared.stop());
    await app.register(rateLimit, {
      global: true,
      hook: "onRequest",
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      ...(shared === undefined ? {} : { store: shared.Store }),
      allowList: (request) => !isApiRoute(request),
      keyGenerator: callerKey,
    });
  },
  { name: "rate-limit", dependencies: ["auth", "db"] },
);

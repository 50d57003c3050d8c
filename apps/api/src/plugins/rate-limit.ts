import fp from "fastify-plugin";
import rateLimit from "@fastify/rate-limit";
import type { Config } from "../config.js";

/**
 * A coarse per-user limit on the API (per address before sign-in). Keyed by user after sign-in so that
 * staff sharing one clinic address do not share one budget. Sign-in has its own throttle.
 */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    await app.register(rateLimit, {
      global: true,
      hook: "preHandler",
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      allowList: (request) => !request.url.startsWith("/api/"),
      keyGenerator: (request) => (request.auth === null ? `ip:${request.ip}` : `user:${request.auth.userId}`),
    });
  },
  { name: "rate-limit", dependencies: ["auth"] },
);

import fp from "fastify-plugin";
import helmet from "@fastify/helmet";
import type { Config } from "../config.js";

/** Security headers; the content security policy allows no eval and no inline scripts. */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    const production = config.nodeEnv === "production";
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          baseUri: ["'self'"],
          connectSrc: ["'self'"],
          fontSrc: ["'self'", "data:"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          imgSrc: ["'self'", "data:", "blob:"],
          objectSrc: ["'none'"],
          scriptSrc: ["'self'"],
          scriptSrcAttr: ["'none'"],
          // The report designer runs untrusted report scripts in a Worker made from a blob, inside a
          // sandboxed frame that inherits this policy.
          workerSrc: ["'self'", "blob:"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          ...(production ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      hsts: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: "no-referrer" },
    });
  },
  { name: "helmet" },
);

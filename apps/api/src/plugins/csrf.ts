import fp from "fastify-plugin";
import { forbidden } from "../errors.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cookie-authenticated writes must carry `X-Requested-With: XMLHttpRequest` (docs/api.md). A cross-site
 * page cannot add that header without a CORS preflight, which this server never grants.
 */
export default fp(
  async (app) => {
    app.addHook("onRequest", async (request) => {
      if (SAFE_METHODS.has(request.method) || !request.url.startsWith("/api/")) return;
      if (request.headers["x-requested-with"] !== "XMLHttpRequest") {
        throw forbidden("Missing X-Requested-With header.");
      }
    });
  },
  { name: "csrf" },
);

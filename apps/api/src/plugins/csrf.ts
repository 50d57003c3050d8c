import fp from "fastify-plugin";
import { forbidden } from "../errors.js";
import { isApiRoute } from "./access.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cookie-authenticated writes must carry `X-Requested-With: XMLHttpRequest` (docs/api.md). A cross-site
 * page cannot add that header without a CORS preflight, which this server never grants. Decided on the
 * route the router matched: the router decodes the path, so `/%61pi/…` reaches the same route.
 */
export default fp(
  async (app) => {
    app.addHook("onRequest", async (request) => {
      if (SAFE_METHODS.has(request.method) || !isApiRoute(request)) return;
      if (request.headers["x-requested-with"] !== "XMLHttpRequest") {
        throw forbidden("Missing X-Requested-With header.");
      }
    });
  },
  { name: "csrf" },
);

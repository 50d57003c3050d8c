import fp from "fastify-plugin";
import { isApiRoute } from "./access.js";

/**
 * API answers carry patient data or session state, so none may be cached. Decided on the route the
 * router matched (the raw URL may spell `/api` percent-encoded); answers of no route at all (404s) and
 * any answer that has not chosen its own caching are not stored either.
 */
export default fp(
  async (app) => {
    app.addHook("onSend", async (request, reply, payload) => {
      if (isApiRoute(request) || !reply.hasHeader("cache-control")) reply.header("Cache-Control", "no-store");
      return payload;
    });
  },
  { name: "no-store" },
);

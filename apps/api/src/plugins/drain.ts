import fp from "fastify-plugin";
import { AppError } from "../errors.js";
import { RETRY_AFTER_SECONDS } from "./error-handler.js";

/** The probes keep answering while the process stops: `/readyz` says it is stopping. */
const PROBES = new Set(["/healthz", "/readyz"]);

/**
 * While the process stops (`app.draining`): a request that arrives is refused with 503 and
 * Retry-After, and every answer closes its connection, so that no keep-alive connection holds the
 * stop up and clients open their next one to a server that is staying.
 */
export default fp(
  async (app) => {
    app.addHook("onRequest", async (request) => {
      if (!app.draining || PROBES.has(request.routeOptions.url ?? "")) return;
      throw new AppError(503, "STOPPING", "The service is restarting. Please try again in a moment.", {
        headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
      });
    });
    app.addHook("onSend", async (_request, reply) => {
      if (app.draining) reply.header("connection", "close");
    });
  },
  { name: "drain" },
);

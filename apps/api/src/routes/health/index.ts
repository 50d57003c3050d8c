import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { RETRY_AFTER_SECONDS } from "../../plugins/error-handler.js";

const HealthSchema = z.object({ status: z.literal("ok") });
const ReadySchema = z.object({
  status: z.enum(["ready", "unavailable", "stopping"]),
  database: z.enum(["pglite", "postgres"]),
});

/**
 * Probes for a load balancer or orchestrator, outside /api: `/healthz` says the process answers (restart
 * it if not), `/readyz` that it should be sent requests: the database answers, holds every migration
 * this build knows, and the process is not shutting down.
 */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/healthz",
    { schema: { summary: "The process is up", response: { 200: HealthSchema } } },
    async () => ({ status: "ok" as const }),
  );

  app.get(
    "/readyz",
    {
      schema: {
        summary: "The process should be sent requests",
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      const database = app.database.kind;
      if (app.draining) {
        return reply
          .code(503)
          .header("retry-after", String(RETRY_AFTER_SECONDS))
          .send({
            status: "stopping" as const,
            database,
          });
      }
      if (!(await app.database.ready())) {
        return reply
          .code(503)
          .header("retry-after", String(RETRY_AFTER_SECONDS))
          .send({
            status: "unavailable" as const,
            database,
          });
      }
      return { status: "ready" as const, database };
    },
  );
};

export default healthRoutes;

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ClientConfigSchema } from "@core-care/schema";

/** GET /api/config: the constants the web app needs before sign-in (SPEC 9). */
const configRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/config", { schema: { response: { 200: ClientConfigSchema } } }, async () => ({
    idleTimeoutSeconds: app.config.idleTimeoutSeconds,
    keepaliveIntervalSeconds: 300,
    keepaliveMinDelaySeconds: 10,
    defaultUrl: "/",
    environment: app.config.nodeEnv,
  }));
};

export default configRoutes;

import Fastify, { type FastifyInstance } from "fastify";
import { formatPhone } from "@core-care/survey-engine";

export interface AppConfig {
  logLevel: string;
}

export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: config.logLevel } });
  app.get("/api/health", () => ({ ok: true, sample: formatPhone("5551234") }));
  return app;
}

import Fastify, { type FastifyInstance } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import type { Database } from "./db/index.js";
import { loggerOptions } from "./logging.js";
import authPlugin from "./plugins/auth.js";
import csrfPlugin from "./plugins/csrf.js";
import dbPlugin from "./plugins/db.js";
import errorHandlerPlugin from "./plugins/error-handler.js";
import helmetPlugin from "./plugins/helmet.js";
import noStorePlugin from "./plugins/no-store.js";
import rateLimitPlugin from "./plugins/rate-limit.js";
import sessionPlugin from "./plugins/session.js";
import webPlugin from "./plugins/web.js";
import alertsRoutes from "./routes/alerts/index.js";
import auditRoutes from "./routes/audit/index.js";
import authRoutes from "./routes/auth/index.js";
import configRoutes from "./routes/config/index.js";
import interfacesRoutes from "./routes/interfaces/index.js";
import locationsRoutes from "./routes/locations/index.js";
import patientsRoutes from "./routes/patients/index.js";
import reportsRoutes from "./routes/reports/index.js";
import surveyResultsRoutes from "./routes/survey-results/index.js";
import surveysRoutes from "./routes/surveys/index.js";
import teleAwvRoutes from "./routes/tele-awv/index.js";
import tenantsRoutes from "./routes/tenants/index.js";
import usersRoutes from "./routes/users/index.js";
import deliveryRoutes from "./delivery/routes.js";
import deliveryWorkerPlugin from "./delivery/plugin.js";
import { isEmptyDatabase, seedDemoData } from "./seed.js";
import { serializerCompiler } from "./serializer.js";
import { LoginThrottle, type ThrottleLimits } from "./services/login-throttle.js";
import { createMailer, type Mailer } from "./services/mailer.js";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    mailer: Mailer;
    loginThrottle: LoginThrottle;
  }
}

export interface BuildAppOptions {
  /** An already opened database (tests); otherwise the app opens and closes its own. */
  database?: Database;
  /** A mailer to use instead of the one the config describes. */
  mailer?: Mailer;
  /** Sign-in failure limits other than the defaults. */
  throttleLimits?: ThrottleLimits;
  /** Where log lines go instead of stdout. */
  logStream?: NodeJS.WritableStream;
}

/** The API routes, one encapsulated plugin per resource, all under /api. */
const ROUTES = [
  configRoutes,
  authRoutes,
  usersRoutes,
  tenantsRoutes,
  patientsRoutes,
  surveysRoutes,
  reportsRoutes,
  surveyResultsRoutes,
  locationsRoutes,
  interfacesRoutes,
  alertsRoutes,
  auditRoutes,
  teleAwvRoutes,
  deliveryRoutes,
];

/** Builds the Fastify app; only src/server.ts listens. */
export async function buildApp(config: Config, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("config", config);
  app.decorate("mailer", options.mailer ?? createMailer(config, app.log));
  app.decorate("loginThrottle", new LoginThrottle(options.throttleLimits));

  await app.register(errorHandlerPlugin);
  await app.register(dbPlugin, { config, database: options.database });
  await app.register(helmetPlugin, { config });
  await app.register(sessionPlugin, { config });
  await app.register(authPlugin, { config });
  await app.register(csrfPlugin);
  await app.register(rateLimitPlugin, { config });
  await app.register(noStorePlugin);
  await app.register(deliveryWorkerPlugin);

  for (const routes of ROUTES) await app.register(routes, { prefix: "/api" });
  await app.register(webPlugin, { config });

  if (config.seedOnStart && (await isEmptyDatabase(app.db))) {
    await seedDemoData(app.db, config.demoPassword);
    app.log.info("seeded the demo data on first start");
  }
  return app;
}

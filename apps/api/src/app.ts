import Fastify, { type FastifyInstance } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import type { Database } from "./db/index.js";
import { loggerOptions } from "./logging.js";
import accessPlugin from "./plugins/access.js";
import authPlugin from "./plugins/auth.js";
import compressPlugin from "./plugins/compress.js";
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
import exportRoutes from "./routes/exports/index.js";
import authRoutes from "./routes/auth/index.js";
import configRoutes from "./routes/config/index.js";
import interfacesRoutes from "./routes/interfaces/index.js";
import locationsRoutes from "./routes/locations/index.js";
import patientsRoutes from "./routes/patients/index.js";
import reportsRoutes from "./routes/reports/index.js";
import surveyResultsRoutes from "./routes/survey-results/index.js";
import surveysRoutes from "./routes/surveys/index.js";
import tabletRoutes from "./routes/tablet/index.js";
import teleAwvRoutes from "./routes/tele-awv/index.js";
import tenantsRoutes from "./routes/tenants/index.js";
import totpRoutes from "./routes/totp/index.js";
import usersRoutes from "./routes/users/index.js";
import healthRoutes from "./routes/health/index.js";
import deliveryRoutes from "./delivery/routes.js";
import deliveryWorkerPlugin from "./delivery/plugin.js";
import inboundRoutes from "./inbound/routes.js";
import inboundListenerPlugin from "./inbound/plugin.js";
import { isEmptyDatabase, pointDemoInterface, seedDemoData } from "./seed.js";
import { upgradeBuiltinSurveys } from "./services/builtin-surveys.js";
import { startDemoReceiver } from "./delivery/demo-receiver.js";
import { serializerCompiler } from "./serializer.js";
import inputGuardPlugin from "./plugins/input-guard.js";
import drainPlugin from "./plugins/drain.js";
import metricsPlugin from "./plugins/metrics.js";
import openapiPlugin from "./plugins/openapi.js";
import { DEFAULT_THROTTLE_LIMITS, LoginThrottle, type ThrottleLimits } from "./services/login-throttle.js";
import { createMailer, type Mailer } from "./services/mailer.js";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    mailer: Mailer;
    loginThrottle: LoginThrottle;
    /** Set when the process has been told to stop: it answers not ready while it finishes its work. */
    draining: boolean;
  }
}

export interface BuildAppOptions {
  /** An already opened database (tests); otherwise the app opens and closes its own. */
  database?: Database;
  /** A mailer to use instead of the one the config describes. */
  mailer?: Mailer;
  /** Sign-in failure limits other than the defaults. */
  throttleLimits?: Partial<ThrottleLimits>;
  /** Where log lines go instead of stdout. */
  logStream?: NodeJS.WritableStream;
}

/** The API routes, one encapsulated plugin per resource, all under /api. */
const ROUTES = [
  configRoutes,
  authRoutes,
  usersRoutes,
  totpRoutes,
  tenantsRoutes,
  patientsRoutes,
  surveysRoutes,
  reportsRoutes,
  surveyResultsRoutes,
  locationsRoutes,
  interfacesRoutes,
  alertsRoutes,
  auditRoutes,
  exportRoutes,
  teleAwvRoutes,
  tabletRoutes,
  deliveryRoutes,
  inboundRoutes,
];

/** Builds the Fastify app; only src/server.ts listens. */
export async function buildApp(config: Config, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: config.trustProxy,
    // No plugin timeout: the database plugin's first open, migrations and seed take as long as the
    // machine needs (over 10 s on a busy 2-core machine), and a timeout shorter than that work fails it.
    pluginTimeout: 0,
    // A stopping server answers 503 in the API's own error shape (plugins/drain.ts).
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("config", config);
  app.decorate("draining", false);
  app.decorate("mailer", options.mailer ?? createMailer(config, app.log));

  await app.register(errorHandlerPlugin);
  await app.register(drainPlugin);
  // Before every route: it hooks each route as it is added.
  await app.register(compressPlugin);
  await app.register(inputGuardPlugin);
  await app.register(dbPlugin, { config, database: options.database });
  app.decorate(
    "loginThrottle",
    new LoginThrottle(app.db, { ...DEFAULT_THROTTLE_LIMITS, ...options.throttleLimits }),
  );
  await app.register(helmetPlugin, { config });
  await app.register(sessionPlugin, { config });
  await app.register(authPlugin, { config });
  // Before the CSRF and permission checks, so that refused requests count against the limit too.
  await app.register(rateLimitPlugin, { config });
  await app.register(csrfPlugin);
  await app.register(accessPlugin);
  await app.register(noStorePlugin);
  await app.register(deliveryWorkerPlugin);
  await app.register(inboundListenerPlugin);
  await app.register(openapiPlugin);
  await app.register(metricsPlugin);

  await app.register(healthRoutes);
  for (const routes of ROUTES) await app.register(routes, { prefix: "/api" });
  await app.register(webPlugin, { config });

  let receiverPort: number | undefined;
  if (config.demoReceiver) {
    const receiver = await startDemoReceiver();
    app.addHook("onClose", async () => receiver.close());
    receiverPort = receiver.port;
    app.log.info(`demo HL7 receiver on 127.0.0.1:${receiverPort}`);
  }
  if (config.seedOnStart) {
    // Under the start-up lock: servers starting together on one database seed it once.
    await app.database.exclusive(async () => {
      if (!(await isEmptyDatabase(app.db))) return;
      app.log.info("database: seeding the demo data (first start)");
      await seedDemoData(app.db, config.demoPassword, { receiverPort });
      app.log.info("database: seeded the demo data");
    });
  }
  // Practices that installed the built-in surveys before they carried translations get them, unless they
  // changed their copy (services/builtin-surveys.ts).
  const upgraded = await app.database.exclusive(async () => await upgradeBuiltinSurveys(app.db));
  if (upgraded > 0)
    app.log.info(`database: gave ${upgraded} unchanged built-in survey copies their translations`);
  if (receiverPort !== undefined) await pointDemoInterface(app.db, receiverPort);
  return app;
}

import fp from "fastify-plugin";
import { openDatabase, type Database, type Db } from "../db/index.js";
import type { Config } from "../config.js";
import { CappedLists, LISTS_CHANNEL } from "../services/capped-lists.js";
import { TenantSlots } from "../services/tenant-slots.js";

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
    database: Database;
    /** The practices' lists this process has counted past the cap, forgotten when one may shorten. */
    cappedLists: CappedLists;
    /** Each practice's cap on concurrent list reads (services/tenant-slots.ts). */
    listSlots: TenantSlots;
  }
}

export interface DbPluginOptions {
  config: Config;
  /** An already opened database (tests); closed by its owner, not by the app. */
  database?: Database | undefined;
}

/** How often a slow database preparation says it is still at work. */
const STILL_WORKING_MS = 5_000;

/**
 * Opens the database (PGlite under DATA_DIR, or DATABASE_URL) and decorates the app with it. Its
 * first open, migrations and seed may take a minute on a busy machine: no timeout cuts it short
 * (the app's pluginTimeout is off), and it says what it is doing while it works.
 */
export default fp<DbPluginOptions>(
  async (app, { config, database }) => {
    const owned = database === undefined;
    let opened = database;
    if (opened === undefined) {
      const started = Date.now();
      let step = "preparing the database";
      const progress = (message: string) => {
        step = message;
        app.log.info(`database: ${message}`);
      };
      const ticker = setInterval(() => {
        app.log.info(
          `database: still at work, ${Math.round((Date.now() - started) / 1000)} s so far: ${step}`,
        );
      }, STILL_WORKING_MS);
      try {
        opened = await openDatabase(
          config.databaseUrl !== undefined
            ? {
                databaseUrl: config.databaseUrl,
                onIdleError: (err) => app.log.warn({ err }, "an idle database connection failed"),
                onProgress: progress,
              }
            : { pgliteDir: `${config.dataDir}/pglite`, onProgress: progress },
        );
      } finally {
        clearInterval(ticker);
      }
      app.log.info(`database: ready (${opened.kind}, ${Math.round((Date.now() - started) / 100) / 10} s)`);
    }
    const ready = opened;
    app.decorate("database", ready);
    app.decorate("db", ready.db);
    const cappedLists = new CappedLists({ maxEntries: 10_000, maxAgeMs: 60_000 });
    const unlisten = await ready.listen(LISTS_CHANNEL, cappedLists);
    app.decorate("cappedLists", cappedLists);
    // One practice's reads wait behind its own, never the others' (a few beside each running one).
    app.decorate(
      "listSlots",
      new TenantSlots({
        perTenant: config.listTenantConcurrency,
        waitMs: config.listTenantWaitMs,
        maxWaiting: 4 * config.listTenantConcurrency,
      }),
    );
    app.addHook("onClose", async () => {
      await unlisten();
      if (owned) await ready.close();
    });
  },
  { name: "db" },
);

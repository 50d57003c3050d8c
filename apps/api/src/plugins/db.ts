import fp from "fastify-plugin";
import { openDatabase, type Database, type Db } from "../db/index.js";
import type { Config } from "../config.js";

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
    database: Database;
  }
}

export interface DbPluginOptions {
  config: Config;
  /** An already opened database (tests); closed by its owner, not by the app. */
  database?: Database | undefined;
}

/** Opens the database (PGlite under DATA_DIR, or DATABASE_URL) and decorates the app with it. */
export default fp<DbPluginOptions>(
  async (app, { config, database }) => {
    const owned = database === undefined;
    const opened =
      database ??
      (await openDatabase(
        config.databaseUrl !== undefined
          ? {
              databaseUrl: config.databaseUrl,
              onIdleError: (err) => app.log.warn({ err }, "an idle database connection failed"),
            }
          : { pgliteDir: `${config.dataDir}/pglite` },
      ));
    app.decorate("database", opened);
    app.decorate("db", opened.db);
    if (owned) app.addHook("onClose", async () => opened.close());
  },
  { name: "db" },
);

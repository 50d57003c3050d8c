import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import pg from "pg";
import * as schema from "./schema.js";

export { schema };

/** The Drizzle database, the same type on PGlite and on a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; repositories accept either it or the database. */
export type Tx = PgTransaction<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL server URL; without it PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; without it PGlite runs in memory (tests). */
  pgliteDir?: string | undefined;
  /** A `dumpDataDir()` archive an in-memory PGlite starts from (skips initdb, which is slow in WASM). */
  pgliteArchive?: Blob | undefined;
  /** Pool size on a PostgreSQL server. */
  poolSize?: number;
  /**
   * Told when an idle pooled connection fails (a server restart, `pg_terminate_backend`). Without a
   * listener node-postgres would crash the process; the pool replaces the connection on next use.
   */
  onIdleError?: (err: Error) => void;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "drizzle");

/** Opens the database and applies the versioned SQL migrations of `drizzle/`. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl !== undefined) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    pool.on("error", options.onIdleError ?? (() => undefined));
    const db = drizzlePg(pool, { schema });
    try {
      await migratePg(db, { migrationsFolder });
    } catch (err) {
      await pool.end();
      throw err;
    }
    return { db: db as unknown as Db, kind: "postgres", close: () => pool.end() };
  }
  const client =
    options.pgliteDir !== undefined
      ? new PGlite(options.pgliteDir)
      : new PGlite(options.pgliteArchive === undefined ? {} : { loadDataDir: options.pgliteArchive });
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: "pglite", close: () => client.close() };
}

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations, SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { PgliteThread, PgliteThreadConnection, type PgliteThreadOptions } from "./pglite-thread.js";
import * as schema from "./schema.js";

export { schema };

/** The Drizzle database, the same type on PGlite and on a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; repositories accept either it or the database. */
export type Tx = PgTransaction<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
export type DbOrTx = Db | Tx;

/**
 * Runs one raw SQL statement. `name` stands for the statement's fixed SQL text (only its parameters
 * vary), so that a driver may parse and plan it once per connection.
 */
export type Execute = (name: string, query: SQL) => Promise<unknown>;

/** Runs raw statements on a database or in a transaction, unprepared. */
export const executeOn =
  (db: DbOrTx): Execute =>
  (_name, query) =>
    db.execute(query);

/** The rows of a raw `db.execute` query (node-postgres answers `{ rows }`). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs a raw statement outside any transaction, as a named prepared statement. */
  execute: Execute;
  /** Subscribes to NOTIFY on a channel; see `Subscriber` for what it reports. */
  listen(channel: string, subscriber: Subscriber): Promise<Unlisten>;
  close(): Promise<void>;
}

/**
 * What a LISTEN subscription reports. `onLive(false)` says notifications may have been missed (the
 * listening connection failed); `onLive(true)` that none can be missed from now on.
 */
export interface Subscriber {
  onNotify(payload: string): void;
  onLive(live: boolean): void;
}

export type Unlisten = () => Promise<void>;

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
  return options.databaseUrl !== undefined ? openServer(options.databaseUrl, options) : openPglite(options);
}

/** The drizzle database on a node-postgres pool, migrated; the pool is ended if migrating fails. */
async function migrated(pool: pg.Pool): Promise<Db> {
  const db = drizzlePg(pool, { schema });
  try {
    await migratePg(db, { migrationsFolder });
  } catch (err) {
    await pool.end();
    throw err;
  }
  return db;
}

/** Runs statements as named prepared statements: parsed and planned once per pooled connection. */
function preparedOn(pool: pg.Pool): Execute {
  const dialect = new PgDialect();
  return async (name, query) => {
    const { sql: text, params } = dialect.sqlToQuery(query);
    return pool.query({ name, text, values: params });
  };
}

async function openServer(url: string, options: OpenDatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  pool.on("error", options.onIdleError ?? (() => undefined));
  const db = await migrated(pool);
  const listeners = new Set<Unlisten>();
  return {
    db,
    kind: "postgres",
    execute: preparedOn(pool),
    async listen(channel, subscriber) {
      const unlisten = await listenOnServer(url, channel, subscriber);
      listeners.add(unlisten);
      return async () => {
        listeners.delete(unlisten);
        await unlisten();
      };
    },
    async close() {
      await Promise.all([...listeners].map((unlisten) => unlisten()));
      await pool.end();
    },
  };
}

/**
 * PGlite on a thread of its own, behind a node-postgres pool of its one session: the same driver, SQL
 * and prepared statements as on a server, and no statement ever holds up the server's thread.
 */
async function openPglite(options: OpenDatabaseOptions): Promise<Database> {
  const thread = new PgliteThread({
    ...(options.pgliteDir === undefined ? {} : { dataDir: options.pgliteDir }),
    ...(options.pgliteArchive === undefined ? {} : { loadDataDir: options.pgliteArchive }),
    wasmModule: await pgliteWasmModule(),
  });
  const subscribers = new Map<string, Set<Subscriber>>();
  const connection = new PgliteThreadConnection(thread, (channel, payload) => {
    for (const subscriber of subscribers.get(channel) ?? []) subscriber.onNotify(payload);
  });
  // PGlite has one session, so one connection; it is kept, never closed for being idle.
  const config = { connection, max: 1, idleTimeoutMillis: 0 } as pg.PoolConfig;
  const pool = new pg.Pool(config);
  pool.on("error", options.onIdleError ?? (() => undefined));
  let db: Db;
  try {
    await thread.ready;
    db = await migrated(pool);
  } catch (err) {
    await thread.close().catch(() => undefined);
    throw err;
  }
  return {
    db,
    kind: "pglite",
    execute: preparedOn(pool),
    // The session is the one every statement runs in, so a notification can never be missed.
    async listen(channel, subscriber) {
      let channelSubscribers = subscribers.get(channel);
      if (channelSubscribers === undefined) {
        channelSubscribers = new Set();
        subscribers.set(channel, channelSubscribers);
        await pool.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      channelSubscribers.add(subscriber);
      subscriber.onLive(true);
      return async () => {
        subscriber.onLive(false);
        channelSubscribers.delete(subscriber);
      };
    },
    async close() {
      await pool.end();
      await thread.close();
    },
  };
}

type WasmModule = NonNullable<PgliteThreadOptions["wasmModule"]>;
/** Node's WebAssembly global, which the project's type libraries leave out. */
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };
};

let compiledPglite: Promise<WasmModule> | undefined;

/** PGlite's WebAssembly, compiled once per process for all its databases (tests open many). */
function pgliteWasmModule(): Promise<WasmModule> {
  const file = createRequire(import.meta.url).resolve("@electric-sql/pglite/pglite.wasm");
  compiledPglite ??= readFile(file).then((bytes) => wasm.compile(bytes));
  return compiledPglite;
}

const RECONNECT_MS = { first: 250, max: 10_000 };

/**
 * LISTEN on a dedicated server connection (a pooled one would drop the subscription when returned).
 * A failed connection is reported as not live and replaced, backing off, until `unlisten`.
 */
async function listenOnServer(url: string, channel: string, subscriber: Subscriber): Promise<Unlisten> {
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = RECONNECT_MS.first;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (first: boolean): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    let failed = false;
    const fail = () => {
      if (failed) return;
      failed = true;
      if (client === next) client = undefined;
      subscriber.onLive(false);
      next.removeAllListeners("notification");
      next.end().catch(() => undefined);
      if (!stopped) {
        timer = setTimeout(() => void connect(false).catch(() => undefined), delay);
        delay = Math.min(delay * 2, RECONNECT_MS.max);
      }
    };
    next.on("error", fail);
    next.on("end", fail);
    next.on("notification", (message) => {
      if (message.channel === channel) subscriber.onNotify(message.payload ?? "");
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      // The caller learns of a first failure and decides; later ones are retried here.
      if (first) stopped = true;
      fail();
      throw err;
    }
    if (stopped) {
      next.removeAllListeners();
      next.on("error", () => undefined);
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    delay = RECONNECT_MS.first;
    subscriber.onLive(true);
  };

  await connect(true);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    subscriber.onLive(false);
    const last = client;
    client = undefined;
    if (last !== undefined) {
      last.removeAllListeners();
      last.on("error", () => undefined);
      await last.end().catch(() => undefined);
    }
  };
}

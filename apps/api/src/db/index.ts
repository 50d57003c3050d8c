import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { sql, type ExtractTablesWithRelations, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import {
  PgliteSession,
  PgliteThread,
  PgliteThreadConnection,
  type PgliteThreadOptions,
} from "./pglite-thread.js";
import * as schema from "./schema.js";

export { schema };

/** The Drizzle database, the same type on PGlite and on a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; repositories accept either it or the database. */
export type Tx = PgTransaction<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
export type DbOrTx = Db | Tx;

/**
 * Runs one raw SQL statement. `name` stands for the statement's fixed SQL text (only its parameters
 * vary), so that a driver may parse and plan it once per connection. A name ending in `#` is completed
 * with a digest of the text: a statement built in a few shapes gets one name per shape. With `rowMode`
 * "array" each row comes as an array of its columns in the statement's order (node-postgres then makes
 * no object per row: for a page of 201 rows about 3% of the API's work).
 */
export type Execute = (name: string, query: SQL, rowMode?: "array") => Promise<unknown>;

/** Runs raw statements on a database or in a transaction, unprepared. */
export const executeOn =
  (db: DbOrTx): Execute =>
  async (_name, query, rowMode) => {
    // Both drivers answer node-postgres's result, whose `fields` give the columns' order.
    const result: unknown = await db.execute(query);
    if (rowMode !== "array") return result;
    const { rows, fields } = result as pg.QueryResult<Record<string, unknown>>;
    return { rows: rows.map((row) => fields.map((field) => row[field.name])), fields };
  };

/** The rows of a raw `db.execute` query (node-postgres answers `{ rows }`). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
}

const poolStateOf = (pool: pg.Pool): PoolState => ({
  total: pool.totalCount,
  idle: pool.idleCount,
  waiting: pool.waitingCount,
});

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs a raw statement outside any transaction, as a named prepared statement. */
  execute: Execute;
  /**
   * Runs a list page's read as {@link execute} does, planned once for any parameters: on a server, on
   * connections of its own where PostgreSQL keeps one generic plan per statement (see LIST_READ_OPTIONS);
   * on PGlite, as `execute`.
   */
  executeList: Execute;
  /**
   * Runs a patient search's reads with plain index scans and sequential scans off, which leaves bitmap
   * scans: the trigram index, or a B-tree index for a birth date (services/patients.ts says why). On a
   * server, on connections of their own opened with those settings (see SEARCH_READ_OPTIONS), so a
   * search is one round trip; on PGlite, in a transaction that sets them. `work` is given the database
   * and a way to run raw statements there: on a server as prepared statements of those connections.
   */
  searchReads: <T>(work: (db: DbOrTx, execute: Execute) => Promise<T>) => Promise<T>;
  /** Subscribes to NOTIFY on a channel; see `Subscriber` for what it reports. */
  listen(channel: string, subscriber: Subscriber): Promise<Unlisten>;
  /**
   * Runs `work` while no other process on this database runs work under the same lock: start-up
   * steps (migrations, the first seed) of several servers starting at once on one PostgreSQL.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** The connection pool's state now: connections open, idle among them, and requests waiting for one. */
  poolState(): PoolState;
  /** Answers whether the database takes statements and holds every migration this build knows. */
  ready(): Promise<boolean>;
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
  /** Told what the opening is doing (the first open of an embedded database takes a while). */
  onProgress?: (message: string) => void;
  /** Told the text of every statement sent (tests check each statement's tenant routing). */
  onStatement?: (text: string) => void;
  /**
   * How long a list page's or a search's statement may run on a PostgreSQL server before the server
   * cancels it (answered 503 with Retry-After): no list holds a connection of the list reads for longer.
   * PGlite cannot cancel a running statement (no timer in its WebAssembly build), so there it is unset.
   */
  listStatementTimeoutMs?: number;
}

/** The default of `OpenDatabaseOptions.listStatementTimeoutMs`: a list page takes a few milliseconds. */
export const LIST_STATEMENT_TIMEOUT_MS = 5000;

/** A node-postgres client class that reports each statement's text before sending it. */
function reporting(
  Base: typeof pg.Client,
  onStatement: ((text: string) => void) | undefined,
): typeof pg.Client {
  if (onStatement === undefined) return Base;
  class ReportingClient extends Base {
    // node-postgres's query has many overloads; every form names the statement first.
    override query(...args: unknown[]): never {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === "string" ? first : first?.text;
      if (text !== undefined) onStatement?.(text);
      return (super.query as (...a: unknown[]) => never)(...args);
    }
  }
  return ReportingClient;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "drizzle");

/** Opens the database and applies the versioned SQL migrations of `drizzle/`. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.databaseUrl !== undefined ? openServer(options.databaseUrl, options) : openPglite(options);
}

/**
 * The advisory lock key of start-up work (two 32-bit halves; any fixed pair no other software on the
 * database uses).
 */
const STARTUP_LOCK = [0x436f7265, 0x43617265] as const;

/** Runs `work` holding the start-up advisory lock on a connection of its own. */
async function underAdvisoryLock<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1, $2)", [...STARTUP_LOCK]);
    try {
      return await work(client);
    } finally {
      await client.query("select pg_advisory_unlock($1, $2)", [...STARTUP_LOCK]);
    }
  } finally {
    client.release();
  }
}

/**
 * The drizzle database on a node-postgres pool, migrated; the pool is ended if migrating fails.
 * Several servers starting at once on one database migrate one after another, under the lock.
 */
async function migrated(pool: pg.Pool, onProgress: (message: string) => void): Promise<Db> {
  const db = drizzlePg(pool, { schema });
  try {
    onProgress("applying the database migrations");
    await underAdvisoryLock(pool, (client) => migratePg(drizzlePg(client, { schema }), { migrationsFolder }));
  } catch (err) {
    await pool.end();
    throw err;
  }
  return db;
}

/** The number of migrations this build carries (drizzle's journal). */
async function knownMigrations(): Promise<number> {
  const journal = JSON.parse(await readFile(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** Whether the database answers and has applied at least every migration this build knows. */
async function readyOn(pool: pg.Pool): Promise<boolean> {
  try {
    const [known, applied] = await Promise.all([
      knownMigrations(),
      pool.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations"),
    ]);
    return (applied.rows[0]?.n ?? 0) >= known;
  } catch {
    return false;
  }
}

const CONNECT_TIMEOUT_MS = 10_000;

/** `prefix` and a digest of `text`, remembered (a few shapes per prefix, so the map stays small). */
function shapeName(names: Map<string, string>, prefix: string, text: string): string {
  const key = `${prefix}${text}`;
  let name = names.get(key);
  if (name === undefined) {
    name = `${prefix}${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
    if (names.size < 1000) names.set(key, name);
  }
  return name;
}

/** Runs statements as named prepared statements: parsed and planned once per pooled connection. */
function preparedOn(pool: pg.Pool): Execute {
  const dialect = new PgDialect();
  const names = new Map<string, string>();
  return async (name, query, rowMode) => {
    const { sql: text, params } = dialect.sqlToQuery(query);
    return pool.query({
      name: name.endsWith("#") ? shapeName(names, name, text) : name,
      text,
      values: params,
      ...(rowMode === undefined ? {} : { rowMode }),
    });
  };
}

/**
 * The settings of the list reads' connections. A prepared statement is otherwise planned anew at every
 * execution with its parameters' values (a "custom plan"), which for a results page cost PostgreSQL about
 * a fifth of its CPU per request. A list page's best plan does not depend on those values: the
 * tenant leads every index, the keyset's order is an index's order and the page is 201 rows, so one
 * generic plan per statement serves every tenant, duration, cursor, sort and patient. (Not one survey's
 * results: whether a survey has most of a practice's results or a few decides the index, so that list
 * stays on custom plans.) Parallel workers are kept out: a generic plan cannot know a page stops after
 * 201 rows and would start them for each page.
 */
export const LIST_READ_OPTIONS = "-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0";

/**
 * How close a word must be to a word of a patient's `search_text` (pg_trgm's word similarity) for the
 * typo-tolerant search (services/patient-search.ts): "hobs" is 0.6 of "hobbs", "smth" 0.4 of "smithers".
 * pg_trgm's `<%` reads it from the setting, so it is set where the searches run.
 */
export const WORD_SIMILARITY = 0.5;

/**
 * The settings of the patient searches' connections: no plain index scan and no sequential scan, which
 * leaves bitmap scans (see `Database.searchReads`). Set for each search in a transaction instead, they
 * cost three more round trips a search (begin, the settings, commit).
 */
export const SEARCH_READ_OPTIONS = `-c enable_seqscan=off -c enable_indexscan=off -c pg_trgm.word_similarity_threshold=${WORD_SIMILARITY}`;

/** `searchReads` where the settings are set for each search: in a transaction of its own. */
export function searchInTransaction(db: Db) {
  return <T>(work: (db: DbOrTx, execute: Execute) => Promise<T>): Promise<T> =>
    db.transaction(async (tx) => {
      await tx.execute(
        sql`select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
          set_config('pg_trgm.word_similarity_threshold', ${String(WORD_SIMILARITY)}, true)`,
      );
      return work(tx, executeOn(tx));
    });
}

async function openServer(url: string, options: OpenDatabaseOptions): Promise<Database> {
  const poolSize = options.poolSize ?? 10;
  /** A pool of `max` connections opened with `settings`, closed when idle. */
  const poolOf = (max: number, settings?: string) => {
    const opened = new pg.Pool({
      connectionString: url,
      Client: reporting(pg.Client, options.onStatement),
      max,
      // A server that cannot be reached fails a request after this long (503) instead of holding it.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      ...(settings === undefined ? {} : { options: settings }),
    });
    opened.on("error", options.onIdleError ?? (() => undefined));
    return opened;
  };
  const pool = poolOf(poolSize);
  const db = await migrated(pool, options.onProgress ?? (() => undefined));
  // Opened as list pages and searches are read, as the main pool's are.
  // Each list read is cancelled by the server past its timeout: one expensive list cannot keep a
  // connection of the list reads from the other practices' pages for longer.
  const timeout = `-c statement_timeout=${options.listStatementTimeoutMs ?? LIST_STATEMENT_TIMEOUT_MS}`;
  const listPool = poolOf(Math.max(2, Math.ceil(poolSize / 2)), `${LIST_READ_OPTIONS} ${timeout}`);
  const searchPool = poolOf(Math.max(2, Math.ceil(poolSize / 4)), `${SEARCH_READ_OPTIONS} ${timeout}`);
  const searchDb = drizzlePg(searchPool, { schema });
  const executeSearch = preparedOn(searchPool);
  const listeners = new Set<Unlisten>();
  return {
    db,
    kind: "postgres",
    execute: preparedOn(pool),
    executeList: preparedOn(listPool),
    searchReads: (work) => work(searchDb, executeSearch),
    exclusive: (work) => underAdvisoryLock(pool, () => work()),
    // The connections this process holds on the server, the list reads' and searches' with the rest.
    poolState: () => {
      const states = [pool, listPool, searchPool].map(poolStateOf);
      const sum = (key: keyof PoolState) => states.reduce((n, state) => n + state[key], 0);
      return { total: sum("total"), idle: sum("idle"), waiting: sum("waiting") };
    },
    ready: () => readyOn(pool),
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
      await Promise.all([pool.end(), listPool.end(), searchPool.end()]);
    },
  };
}

/**
 * PGlite on a thread of its own, behind a node-postgres pool of its one session: the same driver, SQL
 * and prepared statements as on a server, and no statement ever holds up the server's thread.
 */
async function openPglite(options: OpenDatabaseOptions): Promise<Database> {
  const onProgress = options.onProgress ?? (() => undefined);
  const releaseDir = options.pgliteDir === undefined ? () => undefined : lockDataDir(options.pgliteDir);
  onProgress(
    options.pgliteDir !== undefined && !existsSync(join(options.pgliteDir, "PG_VERSION"))
      ? "creating the embedded database (first start only)"
      : "opening the embedded database",
  );
  const thread = new PgliteThread({
    ...(options.pgliteDir === undefined ? {} : { dataDir: options.pgliteDir }),
    ...(options.pgliteArchive === undefined ? {} : { loadDataDir: options.pgliteArchive }),
    wasmModule: await pgliteWasmModule(),
  });
  const subscribers = new Map<string, Set<Subscriber>>();
  const session = new PgliteSession(thread, (channel, payload) => {
    for (const subscriber of subscribers.get(channel) ?? []) subscriber.onNotify(payload);
  });
  // Each client the pool makes speaks to the one session through a connection of its own: the pool
  // discards a client after any failed statement and makes the next one at once.
  class PgliteClient extends pg.Client {
    constructor(config: pg.ClientConfig = {}) {
      super({ ...config, connection: new PgliteThreadConnection(session) } as pg.ClientConfig);
    }
  }
  // PGlite has one session, so one client at a time; it is kept, never closed for being idle.
  const config: pg.PoolConfig = {
    Client: reporting(PgliteClient, options.onStatement),
    max: 1,
    idleTimeoutMillis: 0,
  };
  const pool = new pg.Pool(config);
  pool.on("error", options.onIdleError ?? (() => undefined));
  let db: Db;
  try {
    await thread.ready;
    db = await migrated(pool, onProgress);
  } catch (err) {
    await thread.close().catch(() => undefined);
    releaseDir();
    throw err;
  }
  const execute = preparedOn(pool);
  // One process holds the data folder, so its start-up work needs no lock.
  return {
    db,
    kind: "pglite",
    execute,
    // One session: its statements are planned as PostgreSQL chooses (custom plans, then generic ones).
    executeList: execute,
    searchReads: searchInTransaction(db),
    exclusive: (work) => work(),
    poolState: () => poolStateOf(pool),
    ready: () => readyOn(pool),
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
      try {
        await pool.end();
        await thread.close();
      } finally {
        releaseDir();
      }
    },
  };
}

/**
 * Claims a PGlite data folder for this process, which PGlite itself does not: two processes writing
 * one folder corrupt it. A lock left by a process that is gone is taken over. Answers the release.
 */
export function lockDataDir(dir: string): () => void {
  const file = `${dir}.lock`;
  mkdirSync(dirname(file), { recursive: true });
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = Number(readFileSync(file, "utf8").trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processExists(holder)) {
        throw new Error(
          `The database in ${dir} is in use by process ${holder}; stop that server first (or set DATABASE_URL).`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    rmSync(file, { force: true });
  };
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
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

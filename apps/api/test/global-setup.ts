import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/index.js";
import { unroutedStatements } from "./tenant-routing.js";

const API_ROOT = join(import.meta.dirname, "..");
const MIGRATIONS = join(API_ROOT, "drizzle");

/**
 * The migrated database every test file's databases are copied from, made once: on PGlite a data-dir
 * archive each in-memory PGlite starts from (kept between runs, see `pgliteArchive`), on a server a
 * template database each file's database is created from, dropped at the end of the run.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (project.getProvidedContext().dbKind === "postgres") return templateDatabase(project);
  project.provide("pgliteArchive", await pgliteArchive());
  return undefined;
}

/**
 * Runs initdb and the migrations and keeps the result as an archive, so each test file's in-memory
 * PGlite starts from it in a second or two instead of repeating initdb in WASM (20 s and more). The
 * archive is kept in `node_modules/.cache` under a hash of everything it is made from (the migrations,
 * PGlite's version, this file): a run after the first starts at once, and a new migration makes a new one.
 */
async function pgliteArchive(): Promise<string> {
  const hash = createHash("sha256");
  const pgliteWasm = createRequire(import.meta.url).resolve("@electric-sql/pglite/pglite.wasm");
  hash.update(readFileSync(join(dirname(pgliteWasm), "..", "package.json")));
  hash.update(readFileSync(import.meta.filename));
  const files = readdirSync(MIGRATIONS, { recursive: true, encoding: "utf8" })
    .filter((name) => statSync(join(MIGRATIONS, name)).isFile())
    .sort();
  for (const name of files) hash.update(name).update(readFileSync(join(MIGRATIONS, name)));
  const key = hash.digest("hex").slice(0, 16);
  const cacheDir = join(API_ROOT, "node_modules", ".cache", "core-care-test");
  const file = join(cacheDir, `pglite-${key}.tar`);
  if (existsSync(file)) return file;

  // 1 MB WAL segments and no template databases (they serve only CREATE DATABASE, which no test runs on
  // PGlite): the archive is 16 MB instead of 41, and each file's PGlite starts on 0.7x the CPU.
  const client = new PGlite({ extensions: { pg_trgm }, initDbStartParams: ["--wal-segsize=1"] });
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });
  for (const template of ["template0", "template1"]) {
    await client.query(`alter database ${template} is_template false`);
    await client.query(`drop database ${template}`);
  }
  const archive = await client.dumpDataDir("none");
  await client.close();
  mkdirSync(cacheDir, { recursive: true });
  // Written aside and renamed: a run beside this one sees the whole archive or none.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await archive.arrayBuffer()));
  renameSync(partial, file);
  for (const old of readdirSync(cacheDir)) {
    if (old.startsWith("pglite-") && old !== `pglite-${key}.tar` && !old.endsWith(".partial")) {
      rmSync(join(cacheDir, old), { force: true });
    }
  }
  return file;
}

/**
 * Creates and migrates the run's template database on the server; each test file's database is a
 * copy of it (`create database ... template ...`, test/helpers.ts). The migrations' statements are held
 * to the tenant-routing check of test/setup.ts here, once, as each file's were when it migrated its own.
 * Connections to the template are then refused: PostgreSQL copies only a database no one is connected to.
 */
async function templateDatabase(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = project.getProvidedContext().databaseUrl;
  const name = `tpl_${process.pid}_${randomBytes(4).toString("hex")}`;
  const onServer = async (statement: string) => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await onServer(`create database ${name}`);
  const drop = () => onServer(`drop database if exists ${name} with (force)`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const statements = new Set<string>();
    const database = await openDatabase({
      databaseUrl: url.toString(),
      poolSize: 1,
      onStatement: (text) => statements.add(text),
    });
    await database.close();
    const problems = await unroutedStatements(statements);
    if (problems.length > 0) {
      throw new Error(
        `migration statements that do not filter a tenant-owned table on its tenant:\n${problems.join("\n")}`,
      );
    }
    await onServer(`alter database ${name} with allow_connections false`);
  } catch (err) {
    await drop();
    throw err;
  }
  project.provide("templateDatabase", name);
  return drop;
}

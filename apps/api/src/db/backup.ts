import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { lockDataDir } from "./index.js";

/** Where a backup comes from or goes to: a PostgreSQL server, or an embedded database's data folder. */
export type BackupSource = { databaseUrl: string } | { pgliteDir: string };

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "inherit", "pipe"] });
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (${code}): ${errors.trim()}`)),
    );
  });
}

/**
 * Writes a backup of the whole database to `file`. A server is dumped with pg_dump in its custom
 * format, while it runs. An embedded database is archived from its data folder (gzipped tar),
 * which no server may hold at the time: its lock refuses while one does.
 */
export async function backupDatabase(source: BackupSource, file: string): Promise<void> {
  if ("databaseUrl" in source) {
    await run("pg_dump", ["--format=custom", "--no-owner", "--file", file, "--dbname", source.databaseUrl]);
    return;
  }
  const release = lockDataDir(source.pgliteDir);
  try {
    const db = await PGlite.create({ dataDir: source.pgliteDir, extensions: { pg_trgm } });
    try {
      const archive = await db.dumpDataDir("gzip");
      writeFileSync(file, Buffer.from(await archive.arrayBuffer()), { mode: 0o600 });
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}

/**
 * Restores a backup of {@link backupDatabase} into `target`: a server database (pg_restore, replacing
 * every object the backup holds), or a data folder that must not exist yet (move the old one aside).
 */
export async function restoreDatabase(target: BackupSource, file: string): Promise<void> {
  if ("databaseUrl" in target) {
    await run("pg_restore", ["--clean", "--if-exists", "--no-owner", "--dbname", target.databaseUrl, file]);
    return;
  }
  if (existsSync(target.pgliteDir) && readdirSync(target.pgliteDir).length > 0) {
    throw new Error(`${target.pgliteDir} is not empty: move it aside before restoring into it`);
  }
  const release = lockDataDir(target.pgliteDir);
  try {
    const db = await PGlite.create({
      dataDir: target.pgliteDir,
      extensions: { pg_trgm },
      loadDataDir: new Blob([readFileSync(file)]),
    });
    await db.close();
  } finally {
    release();
  }
}

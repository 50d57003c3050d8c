import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { TestProject } from "vitest/node";

/**
 * Runs initdb and the migrations once per run and keeps the result as an archive, so each test file's
 * in-memory PGlite starts from it in a few seconds instead of repeating initdb in WASM.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "core-care-pglite-"));
  const file = join(dir, "migrated.tar");
  const client = new PGlite({ extensions: { pg_trgm } });
  await migrate(drizzle(client), { migrationsFolder: join(import.meta.dirname, "..", "drizzle") });
  const archive = await client.dumpDataDir("none");
  await client.close();
  writeFileSync(file, Buffer.from(await archive.arrayBuffer()));
  project.provide("pgliteArchive", file);
  return () => rmSync(dir, { recursive: true, force: true });
}

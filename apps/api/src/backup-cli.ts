import { resolve } from "node:path";
import { loadConfig } from "./config.js";
import { backupDatabase, restoreDatabase, type BackupSource } from "./db/backup.js";

// pnpm --filter @core-care/api backup <file>   |   pnpm --filter @core-care/api restore <file>
const [command, file] = process.argv.slice(2);
if ((command !== "backup" && command !== "restore") || file === undefined) {
  console.error("usage: backup-cli backup <file> | restore <file>");
  process.exit(2);
}
const config = loadConfig();
const source: BackupSource =
  config.databaseUrl !== undefined
    ? { databaseUrl: config.databaseUrl }
    : { pgliteDir: `${config.dataDir}/pglite` };
const path = resolve(file);
if (command === "backup") {
  await backupDatabase(source, path);
  console.log(`Backed up the ${"databaseUrl" in source ? "PostgreSQL" : "embedded"} database to ${path}`);
} else {
  await restoreDatabase(source, path);
  console.log(`Restored ${path} into the ${"databaseUrl" in source ? "PostgreSQL" : "embedded"} database`);
}

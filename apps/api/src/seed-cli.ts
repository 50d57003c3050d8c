import { loadConfig } from "./config.js";
import { openDatabase } from "./db/index.js";
import { seedDemoData } from "./seed.js";

const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl !== undefined
    ? { databaseUrl: config.databaseUrl }
    : { pgliteDir: `${config.dataDir}/pglite` },
);
try {
  await seedDemoData(database.db, config.demoPassword);
  console.log(`Seeded the demo data (${database.kind}).`);
} finally {
  await database.close();
}

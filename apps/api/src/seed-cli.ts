import { loadConfig } from "./config.js";
import { openDatabase } from "./db/index.js";
import { seedDemoData } from "./seed.js";

const config = loadConfig();
if (config.nodeEnv === "production") {
  // Demo users with a published password have no place in a production database.
  console.error(
    "The demo data is not seeded in production; create the first administrator with create-admin.",
  );
  process.exit(1);
}
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

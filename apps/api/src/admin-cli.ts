import { Role } from "@core-care/schema";
import { adminPassword, loadConfig } from "./config.js";
import { openDatabase } from "./db/index.js";
import { createFirstAdmin } from "./services/first-admin.js";

// pnpm --filter @core-care/api create-admin <e-mail> <tenant id> "<practice name>"
// with the password in ADMIN_PASSWORD: the first system administrator of a production database,
// which seeds no demo users. Refused once any user exists.
const [email, tenantId, tenantName] = process.argv.slice(2);
const password = adminPassword();
if (email === undefined || tenantId === undefined || tenantName === undefined || password === "") {
  console.error('usage: ADMIN_PASSWORD=… create-admin <e-mail> <tenant id> "<practice name>"');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl !== undefined
    ? { databaseUrl: config.databaseUrl }
    : { pgliteDir: `${config.dataDir}/pglite` },
);
try {
  await createFirstAdmin(database.db, { email, tenantId, tenantName, password, roles: Role.sysAdmin });
  console.log(`Created the system administrator ${email} in practice ${tenantId}.`);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
} finally {
  await database.close();
}

import { count } from "drizzle-orm";
import type { Db } from "../db/index.js";
import { tenants, users } from "../db/schema.js";
import { installBuiltinSurveys } from "./builtin-surveys.js";
import { passwordProblem } from "./passwords.js";
import { createTenantUser } from "./users.js";

/**
 * The first user of an empty production database: a practice and its system administrator, who then
 * manages every practice from the portal. Refused once any user exists, and for a password the
 * portal itself would refuse.
 */
export async function createFirstAdmin(
  db: Db,
  input: { email: string; tenantId: string; tenantName: string; password: string; roles: number },
): Promise<void> {
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) throw new Error("The database has users already: add more from the portal.");
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(input.tenantId)) {
    throw new Error("The tenant id must be lowercase letters, digits and hyphens.");
  }
  const problem = passwordProblem(input.password, { email: input.email, words: [input.tenantName] });
  if (problem !== undefined) throw new Error(`ADMIN_PASSWORD: ${problem}`);
  await db
    .insert(tenants)
    .values({
      id: input.tenantId,
      name: input.tenantName,
      settings: { teleAwvEmail: true, alternateFalls: false },
    })
    .onConflictDoNothing();
  await installBuiltinSurveys(db, input.tenantId);
  await createTenantUser(db, input.tenantId, {
    email: input.email,
    firstName: "System",
    lastName: "Administrator",
    roles: input.roles,
    password: input.password,
  });
}

import { eq } from "drizzle-orm";
import type { Db } from "../db/index.js";
import {
  awvInvitations,
  deliveries,
  interfaces,
  locations,
  patients,
  patientSurveys,
  reports,
  reportVersions,
  safetyAlerts,
  surveyResults,
  surveys,
  surveyVersions,
  tenants,
  userTenants,
  users,
} from "../db/schema.js";
import { sql } from "drizzle-orm";

/**
 * Deletes a tenant with every row it owns, in one transaction. Users left in no tenant go too. The audit
 * trail of the tenant is kept.
 */
export async function deleteTenantData(db: Db, tenantId: string): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of [
      deliveries,
      safetyAlerts,
      awvInvitations,
      surveyResults,
      patientSurveys,
      patients,
      surveyVersions,
      surveys,
      reportVersions,
      reports,
      interfaces,
      locations,
      userTenants,
    ]) {
      await tx.delete(table).where(eq(table.tenantId, tenantId));
    }
    await tx.delete(tenants).where(eq(tenants.id, tenantId));
    await tx
      .delete(users)
      .where(sql`not exists (select 1 from ${userTenants} where ${userTenants.userId} = ${users.id})`);
  });
}

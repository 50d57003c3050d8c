import { and, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { InboundFacility } from "@core-care/schema";
import type { Db } from "../db/index.js";
import { tenants } from "../db/schema.js";
import { AppError, notFound } from "../errors.js";

/**
 * Two entries choose the same messages when their facilities are the same (without case) and either
 * names no application or both name the same one.
 */
function overlap(a: InboundFacility, b: InboundFacility): boolean {
  if (a.facility.toLowerCase() !== b.facility.toLowerCase()) return false;
  return (
    a.application === undefined ||
    b.application === undefined ||
    a.application.toLowerCase() === b.application.toLowerCase()
  );
}

const facilityTaken = (index: number, message: string) => {
  const field = `facilities.${index}.facility`;
  return new AppError(409, "CONFLICT", message, { errors: [{ field, message }] });
};

/**
 * Refuses a list of receiving facilities in which two entries, or an entry and another practice's,
 * would choose the same message: every message goes to one practice or is refused (AR).
 */
export async function assertFacilitiesFree(
  db: Db,
  tenantId: string,
  facilities: readonly InboundFacility[],
): Promise<void> {
  facilities.forEach((facility, index) => {
    if (facilities.slice(0, index).some((earlier) => overlap(earlier, facility))) {
      throw facilityTaken(index, "This receiving facility is listed twice.");
    }
  });
  if (facilities.length === 0) return;
  const others = await db
    .select({ facilities: sql<InboundFacility[]>`${tenants.settings}->'inboundFacilities'` })
    .from(tenants)
    .where(and(ne(tenants.id, tenantId), isNotNull(sql`${tenants.settings}->'inboundFacilities'`)));
  const taken = others.flatMap((row) => (Array.isArray(row.facilities) ? row.facilities : []));
  facilities.forEach((facility, index) => {
    if (taken.some((other) => overlap(other, facility))) {
      throw facilityTaken(index, "Another practice receives messages for this facility.");
    }
  });
}

export async function getInboundFacilities(db: Db, tenantId: string): Promise<InboundFacility[]> {
  const [row] = await db
    .select({ settings: tenants.settings })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  if (row === undefined) throw notFound("Tenant");
  return row.settings.inboundFacilities ?? [];
}

/** Replaces the practice's receiving facilities, leaving its other settings as they are. */
export async function setInboundFacilities(
  db: Db,
  tenantId: string,
  facilities: InboundFacility[],
): Promise<InboundFacility[]> {
  await assertFacilitiesFree(db, tenantId, facilities);
  const updated = await db
    .update(tenants)
    .set({
      settings: sql`jsonb_set(${tenants.settings}, '{inboundFacilities}', ${JSON.stringify(facilities)}::jsonb)`,
      updatedAt: new Date(),
    })
    .where(eq(tenants.id, tenantId))
    .returning({ id: tenants.id });
  if (updated.length === 0) throw notFound("Tenant");
  return getInboundFacilities(db, tenantId);
}

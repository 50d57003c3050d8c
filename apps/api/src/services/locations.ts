import { and, asc, eq } from "drizzle-orm";
import { objectId } from "@core-care/survey-engine";
import type { Location, LocationInput } from "@core-care/schema";
import type { Db } from "../db/index.js";
import { locations } from "../db/schema.js";
import { conflict, notFound } from "../errors.js";
import { isUniqueViolation } from "../db/errors.js";

const columns = { id: locations.id, name: locations.name, code: locations.code };

export async function listLocations(db: Db, tenantId: string): Promise<Location[]> {
  return db
    .select(columns)
    .from(locations)
    .where(eq(locations.tenantId, tenantId))
    .orderBy(asc(locations.name));
}

export async function getLocation(db: Db, tenantId: string, id: string): Promise<Location> {
  const [row] = await db
    .select(columns)
    .from(locations)
    .where(and(eq(locations.tenantId, tenantId), eq(locations.id, id)));
  if (row === undefined) throw notFound("Location");
  return row;
}

const DUPLICATE = "A location with this code already exists.";

export async function createLocation(db: Db, tenantId: string, input: LocationInput): Promise<Location> {
  const id = objectId();
  try {
    await db.insert(locations).values({ tenantId, id, ...input });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE);
    throw err;
  }
  return { id, ...input };
}

export async function updateLocation(
  db: Db,
  tenantId: string,
  id: string,
  input: LocationInput,
): Promise<Location> {
  try {
    const updated = await db
      .update(locations)
      .set({ ...input, updatedAt: new Date() })
      .where(and(eq(locations.tenantId, tenantId), eq(locations.id, id)))
      .returning(columns);
    const [row] = updated;
    if (row === undefined) throw notFound("Location");
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE);
    throw err;
  }
}

export async function deleteLocation(db: Db, tenantId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(locations)
    .where(and(eq(locations.tenantId, tenantId), eq(locations.id, id)))
    .returning({ id: locations.id });
  if (deleted.length === 0) throw notFound("Location");
}

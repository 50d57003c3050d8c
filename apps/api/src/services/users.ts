import { and, asc, eq, inArray } from "drizzle-orm";
import { objectId } from "@core-care/survey-engine";
import { MULTI_TENANT, type Me, type Tenant, type User } from "@core-care/schema";
import type { Db, DbOrTx } from "../db/index.js";
import { tenants, userTenants, users } from "../db/schema.js";
import { conflict, notFound } from "../errors.js";
import { mayOf } from "../permissions.js";
import { hashPassword } from "./passwords.js";

type UserRow = typeof users.$inferSelect;

/** The tenant as the API answers it. */
export function toTenant(row: typeof tenants.$inferSelect): Tenant {
  return {
    id: row.id,
    name: row.name,
    settings: {
      teleAwvEmail: row.settings.teleAwvEmail,
      alternateFalls: row.settings.alternateFalls,
      ...(row.settings.safetyAlertEmail === undefined
        ? {}
        : { safetyAlertEmail: row.settings.safetyAlertEmail }),
      ...(row.settings.usersMay === undefined ? {} : { usersMay: row.settings.usersMay }),
      ...(row.settings.requireAdminTotp === undefined
        ? {}
        : { requireAdminTotp: row.settings.requireAdminTotp }),
    },
  };
}

/** Tenant ids a user belongs to, in a stable order. */
export async function userTenantIds(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db
    .select({ tenantId: userTenants.tenantId })
    .from(userTenants)
    .where(eq(userTenants.userId, userId))
    .orderBy(asc(userTenants.tenantId));
  return rows.map((r) => r.tenantId);
}

function toUser(row: UserRow, roles: number, tenantIds: string[]): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    roles,
    tenant: tenantIds.length === 1 && tenantIds[0] !== undefined ? tenantIds[0] : MULTI_TENANT,
    tenants: tenantIds,
  };
}

/** The signed-in user and current tenant (`Me` of docs/api.md). */
export async function loadMe(db: Db, auth: { userId: string; tenantId: string; roles: number }): Promise<Me> {
  const [user] = await db.select().from(users).where(eq(users.id, auth.userId)).limit(1);
  const [tenant] = await db.select().from(tenants).where(eq(tenants.id, auth.tenantId)).limit(1);
  if (user === undefined || tenant === undefined) throw notFound("User");
  const me = {
    user: toUser(user, auth.roles, await userTenantIds(db, auth.userId)),
    tenant: toTenant(tenant),
  };
  return { ...me, may: mayOf(auth.roles, me.tenant.settings) };
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

/** The users of one tenant with the roles they hold there. */
export async function listUsers(db: Db, tenantId: string): Promise<{ items: User[]; total: number }> {
  const rows = await db
    .select({ user: users, roles: userTenants.roles })
    .from(userTenants)
    .innerJoin(users, eq(users.id, userTenants.userId))
    .where(eq(userTenants.tenantId, tenantId))
    .orderBy(asc(users.lastName), asc(users.firstName));
  const ids = rows.map((r) => r.user.id);
  const memberships =
    ids.length === 0
      ? []
      : await db
          .select({ userId: userTenants.userId, tenantId: userTenants.tenantId })
          .from(userTenants)
          .where(inArray(userTenants.userId, ids))
          .orderBy(asc(userTenants.tenantId));
  const byUser = new Map<string, string[]>();
  for (const m of memberships) byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), m.tenantId]);
  return { items: rows.map((r) => toUser(r.user, r.roles, byUser.get(r.user.id) ?? [])), total: rows.length };
}

/** One user of a tenant; 404 when the user is not a member of it. */
export async function getTenantUser(db: DbOrTx, tenantId: string, userId: string): Promise<User> {
  const [row] = await db
    .select({ user: users, roles: userTenants.roles })
    .from(userTenants)
    .innerJoin(users, eq(users.id, userTenants.userId))
    .where(and(eq(userTenants.tenantId, tenantId), eq(userTenants.userId, userId)))
    .limit(1);
  if (row === undefined) throw notFound("User");
  return toUser(row.user, row.roles, await userTenantIds(db, userId));
}

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  roles: number;
  password: string;
}

/** Creates a new user as a member of a tenant; 409 when the e-mail has an account already. */
export async function createTenantUser(db: Db, tenantId: string, input: NewUser): Promise<User> {
  if ((await findUserByEmail(db, input.email)) !== undefined)
    throw conflict("A user with this e-mail already exists.");
  const id = objectId();
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await tx.insert(users).values({
      id,
      email: input.email.toLowerCase(),
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash,
    });
    await tx.insert(userTenants).values({ tenantId, userId: id, roles: input.roles });
  });
  return getTenantUser(db, tenantId, id);
}

/**
 * Removes a user from a tenant; a user left in no tenant is deleted. Answers whether the user existed
 * in the tenant.
 */
export async function removeTenantUser(db: Db, tenantId: string, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(userTenants)
      .where(and(eq(userTenants.tenantId, tenantId), eq(userTenants.userId, userId)))
      .returning({ userId: userTenants.userId });
    if (removed.length === 0) return false;
    const left = await userTenantIds(tx, userId);
    if (left.length === 0) await tx.delete(users).where(eq(users.id, userId));
    return true;
  });
}

/** Words a password of someone in these tenants must not be built on: each tenant's id and name. */
async function tenantWords(db: DbOrTx, tenantIds: string[]): Promise<string[]> {
  if (tenantIds.length === 0) return [];
  const rows = await db
    .select({ id: tenants.id, name: tenants.name })
    .from(tenants)
    .where(inArray(tenants.id, tenantIds));
  return rows.flatMap((row) => [row.id, row.name, ...row.id.split("-"), ...row.name.split(/\s+/)]);
}

/** The practice names a user's new password must not be built on (see `passwordProblem`). */
export async function contextWords(db: DbOrTx, userId: string): Promise<string[]> {
  return tenantWords(db, await userTenantIds(db, userId));
}

/** The practice names a new user's password in this tenant must not be built on. */
export async function tenantContextWords(db: DbOrTx, tenantId: string): Promise<string[]> {
  return tenantWords(db, [tenantId]);
}

import type { FastifyInstance } from "fastify";
import { and, asc, eq } from "drizzle-orm";
import { userTenants } from "../db/schema.js";
import type { DbOrTx } from "../db/index.js";
import { AppError } from "../errors.js";
import { audit, NO_TENANT } from "./audit.js";
import { verifyAgainstDummy, verifyPassword } from "./passwords.js";
import { throttled } from "./throttled.js";
import { findUserByEmail } from "./users.js";

/** The one answer for an unknown e-mail and for a wrong password, so neither reveals the other. */
export const INVALID_LOGIN = "Invalid email or password.";

export const invalidLogin = () => new AppError(401, "INVALID_LOGIN", INVALID_LOGIN);

/**
 * The tenant a user lands in at sign-in: the one they joined first. Joining another practice later never
 * moves where they land.
 */
export async function landingTenant(
  db: DbOrTx,
  userId: string,
): Promise<{ tenantId: string; roles: number } | undefined> {
  const [row] = await db
    .select({ tenantId: userTenants.tenantId, roles: userTenants.roles })
    .from(userTenants)
    .where(eq(userTenants.userId, userId))
    .orderBy(asc(userTenants.createdAt), asc(userTenants.tenantId))
    .limit(1);
  return row;
}

/** The roles a user holds in one tenant, or undefined when not a member. */
export async function membershipRoles(
  db: DbOrTx,
  userId: string,
  tenantId: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ roles: userTenants.roles })
    .from(userTenants)
    .where(and(eq(userTenants.userId, userId), eq(userTenants.tenantId, tenantId)));
  return row?.roles;
}

export interface CheckedPassword {
  userId: string;
  email: string;
  tenantId: string;
  roles: number;
  totpSecret: string | null;
}

/**
 * Checks an e-mail and password under the sign-in throttle. An unknown e-mail costs the same time as a
 * wrong password and answers the same; every failure is audited (in the user's landing tenant, or with
 * no tenant for an unknown e-mail), without the password or the e-mail typed.
 */
export async function checkPassword(
  app: FastifyInstance,
  email: string,
  password: string,
  ip: string,
): Promise<CheckedPassword> {
  let checked: CheckedPassword | undefined;
  let knownUser: { id: string; tenantId: string | undefined } | undefined;
  const ok = await throttled(app.loginThrottle, email, ip, async () => {
    const user = await findUserByEmail(app.db, email);
    const valid =
      user === undefined
        ? await verifyAgainstDummy(password)
        : await verifyPassword(password, user.passwordHash);
    const landing = user === undefined ? undefined : await landingTenant(app.db, user.id);
    if (user !== undefined) knownUser = { id: user.id, tenantId: landing?.tenantId };
    if (user === undefined || !valid || landing === undefined) return false;
    checked = {
      userId: user.id,
      email: user.email,
      tenantId: landing.tenantId,
      roles: landing.roles,
      totpSecret: user.totpSecret,
    };
    return true;
  });
  if (!ok || checked === undefined) {
    await audit(app.db, {
      tenantId: knownUser?.tenantId ?? NO_TENANT,
      userId: knownUser?.id ?? null,
      action: "login-failed",
      entity: "session",
      ip,
    });
    throw invalidLogin();
  }
  return checked;
}

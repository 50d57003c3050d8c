import type { FastifyInstance } from "fastify";
import { and, eq } from "drizzle-orm";
import { userTenants, users } from "../db/schema.js";
import { fieldError, forbidden } from "../errors.js";
import { audit } from "./audit.js";
import { endHandover, type OpenHandover } from "./handovers.js";
import { throttled } from "./throttled.js";
import { verifyPassword } from "./passwords.js";

/** The answer to a wrong password at the Staff button; the patient learns nothing more from it. */
const WRONG_PASSWORD = "The password is not correct.";

/**
 * The Staff button of a handed-over tablet: the password of the staff member who handed it over ends the
 * patient credential and gives back their staff role in that tenant. Wrong passwords are throttled and
 * audited like failed sign-ins, since a patient could try them.
 */
export async function returnToStaff(
  app: FastifyInstance,
  handover: OpenHandover,
  password: string,
  ip: string,
): Promise<{ userId: string; roles: number }> {
  const [staff] = await app.db
    .select({ email: users.email, passwordHash: users.passwordHash, roles: userTenants.roles })
    .from(users)
    .innerJoin(
      userTenants,
      and(eq(userTenants.userId, users.id), eq(userTenants.tenantId, handover.tenantId)),
    )
    .where(eq(users.id, handover.staffUserId));
  if (staff === undefined || staff.roles === 0) throw forbidden();
  await throttled(app.loginThrottle, staff.email, ip, async () => {
    if (await verifyPassword(password, staff.passwordHash)) return true;
    await audit(app.db, {
      tenantId: handover.tenantId,
      userId: handover.staffUserId,
      action: "login-failed",
      entity: "tablet-handover",
      entityId: handover.handoverId,
      ip,
    });
    throw fieldError("password", WRONG_PASSWORD);
  });
  await endHandover(app.db, handover, "staff", { userId: handover.staffUserId, ip });
  return { userId: handover.staffUserId, roles: staff.roles };
}

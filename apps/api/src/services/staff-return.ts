import type { FastifyInstance, FastifyRequest } from "fastify";
import { and, eq } from "drizzle-orm";
import { userTenants, users } from "../db/schema.js";
import { fieldError, forbidden } from "../errors.js";
import { audit } from "./audit.js";
import { endHandover, type OpenHandover } from "./handovers.js";
import { grantSession, secondFactorRefusal } from "./session-grant.js";
import { throttled } from "./throttled.js";
import { verifyPassword } from "./passwords.js";

/** The answer to a wrong password at the Staff button; the patient learns nothing more from it. */
const WRONG_PASSWORD = "The password is not correct.";

/**
 * The Staff button of a handed-over tablet: the password of the staff member who handed it over, and a
 * code of their second factor when they have one (the tablet was in a patient's hands, who may have seen
 * the password typed), end the patient credential and give back their staff role in that tenant, through
 * the second-factor rule like every way in. Wrong passwords and codes are throttled and audited like
 * failed sign-ins, since a patient could try them. Refused, the patient credential stays as it was.
 */
export async function returnToStaff(
  app: FastifyInstance,
  request: FastifyRequest,
  handover: OpenHandover,
  proof: { password: string; code?: string | undefined },
): Promise<{ userId: string; roles: number }> {
  const ip = request.ip;
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
    if (await verifyPassword(proof.password, staff.passwordHash)) return true;
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
  const outcome = await grantSession(app, request, {
    userId: handover.staffUserId,
    tenantId: handover.tenantId,
    roles: staff.roles,
    factor: proof.code === undefined ? "none" : { code: proof.code },
    // Back to the staff session of whoever handed over; its absolute lifetime still counts from their own
    // sign-in, so the return never extends it.
    signedInAt: request.session.get("staffCreatedAt"),
  });
  if (!outcome.granted) throw secondFactorRefusal(outcome.needs, "tablet");
  await endHandover(app.db, handover, "staff", { userId: handover.staffUserId, ip });
  return { userId: handover.staffUserId, roles: staff.roles };
}

import { and, count, eq, inArray, lte, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { Role } from "@core-care/schema";
import type { Db } from "../db/index.js";
import { auditEvents, deliveries, interfaces, userTenants, users } from "../db/schema.js";
import { audit } from "../services/audit.js";
import type { Mailer } from "../services/mailer.js";
import { stalledQueues } from "./outbox.js";

export interface StallMailContext {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  publicUrl: string;
  /** DELIVERY_STALL_MINUTES: a failed head holding its queue longer than this is a stall. */
  stallMinutes: number;
}

/** The audit action whose event marks a stall as already e-mailed (entity `interface`). */
export const STALL_MAIL_ACTION = "stall-mail";

/** How often the API process looks for stalled queues to e-mail about. */
export const STALL_CHECK_INTERVAL_MS = 60_000;

/**
 * E-mails each practice's admins once per stall: a failed delivery that has held its interface's queue
 * longer than the stall minutes. A stall is its head delivery and the time it failed, so a resend that
 * fails again, or a later delivery failing after the queue recovered, is a new stall and is e-mailed
 * again. The "already sent" marker is an audit event (action `stall-mail`, the interface, the head and
 * its failure time), written under a lock of the interface row before the mail goes, so several API
 * processes never send one stall twice. The mail names the interface and how many messages wait, never a
 * patient. A failed send is logged, not retried (the Deliveries screen's banner still shows the stall).
 * Answers how many stalls were e-mailed.
 */
export async function mailStalledQueues(context: StallMailContext, now = new Date()): Promise<number> {
  const { db } = context;
  const cutoff = new Date(now.getTime() - context.stallMinutes * 60_000);
  const tenantRows = await db
    .selectDistinct({ tenantId: deliveries.tenantId })
    .from(deliveries)
    .where(and(eq(deliveries.status, "failed"), lte(deliveries.updatedAt, cutoff)));
  let sent = 0;
  for (const { tenantId } of tenantRows) {
    for (const stall of await stalledQueues(db, tenantId, context.stallMinutes, now)) {
      const fresh = await db.transaction(async (tx) => {
        await tx
          .select({ id: interfaces.id })
          .from(interfaces)
          .where(and(eq(interfaces.tenantId, tenantId), eq(interfaces.id, stall.interfaceId)))
          .for("update");
        const [marked] = await tx
          .select({ id: auditEvents.id })
          .from(auditEvents)
          .where(
            and(
              eq(auditEvents.tenantId, tenantId),
              eq(auditEvents.entityId, stall.interfaceId),
              eq(auditEvents.action, STALL_MAIL_ACTION),
              sql`${auditEvents.details}->>'deliveryId' = ${stall.deliveryId}`,
              sql`${auditEvents.details}->>'failedAt' = ${stall.failedAt}`,
            ),
          )
          .limit(1);
        if (marked !== undefined) return false;
        await audit(tx, {
          tenantId,
          userId: null,
          action: STALL_MAIL_ACTION,
          entity: "interface",
          entityId: stall.interfaceId,
          details: { deliveryId: stall.deliveryId, failedAt: stall.failedAt },
        });
        return true;
      });
      if (!fresh) continue;
      const [waiting] = await db
        .select({ n: count() })
        .from(deliveries)
        .where(
          and(
            eq(deliveries.tenantId, tenantId),
            eq(deliveries.interfaceId, stall.interfaceId),
            inArray(deliveries.status, ["pending", "sending", "failed"]),
          ),
        );
      const admins = await db
        .select({ email: users.email })
        .from(userTenants)
        .innerJoin(users, eq(users.id, userTenants.userId))
        .where(and(eq(userTenants.tenantId, tenantId), sql`(${userTenants.roles} & ${Role.admin}) <> 0`));
      const name = stall.interfaceName ?? "An interface";
      const n = waiting?.n ?? 0;
      const link = `${context.publicUrl.replace(/\/+$/, "")}/deliveries?interface=${stall.interfaceId}`;
      for (const admin of admins) {
        try {
          await context.mailer.send({
            to: admin.email,
            subject: `Core Care: deliveries to ${name} are stalled`,
            text:
              `A failed message has held the delivery queue of ${name} for more than ` +
              `${context.stallMinutes} minutes. ${n} ${n === 1 ? "message is" : "messages are"} waiting.\n\n` +
              `Resend or skip the failed message on the Deliveries screen:\n${link}\n`,
          });
        } catch (cause) {
          context.log.error(
            { code: (cause as { code?: unknown }).code, interfaceId: stall.interfaceId },
            "stall mail failed",
          );
        }
      }
      sent += 1;
    }
  }
  return sent;
}

import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../db/index.js";
import { deliveries, surveyResults } from "../db/schema.js";
import { audit } from "./audit.js";

/** The deliveries a removal cancels: every one not yet delivered, skipped or cancelled. */
export const UNSENT = ["pending", "sending", "failed"] as const;

/** Why a delivery was cancelled, as its log shows it. */
const CANCELLED_RESULT_REMOVED = "Cancelled: the survey result was removed before it was sent.";
const CANCELLED_PATIENT_REMOVED = "Cancelled: the patient was removed before the result was sent.";

/**
 * Cancels, in the caller's transaction, the deliveries not yet sent of the results `which` names (one
 * result, or every result of one patient): a result removed because it was filed under the wrong patient
 * must not reach the EHR. Each stays in the log as `cancelled` with the reason, and is audited. A
 * delivery being sent at this moment is cancelled too; if its receiver acknowledges that attempt, the
 * worker records it as delivered (the message did arrive) with a note that it was removed meanwhile.
 */
export async function cancelUnsentDeliveries(
  tx: DbOrTx,
  tenantId: string,
  which: { resultId: string } | { patientId: string },
  actor: { userId: string | null; ip?: string | null },
): Promise<string[]> {
  const ofResults =
    "resultId" in which
      ? eq(deliveries.resultId, which.resultId)
      : inArray(
          deliveries.resultId,
          tx
            .select({ id: surveyResults.id })
            .from(surveyResults)
            .where(and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.patientId, which.patientId))),
        );
  const now = new Date();
  const cancelled = await tx
    .update(deliveries)
    .set({
      status: "cancelled",
      nextAttemptAt: null,
      lastError: "resultId" in which ? CANCELLED_RESULT_REMOVED : CANCELLED_PATIENT_REMOVED,
      updatedAt: now,
    })
    .where(and(eq(deliveries.tenantId, tenantId), ofResults, inArray(deliveries.status, [...UNSENT])))
    .returning({ id: deliveries.id });
  for (const { id } of cancelled) {
    await audit(tx, {
      tenantId,
      userId: actor.userId,
      action: "update",
      entity: "delivery:cancelled",
      entityId: id,
      ip: actor.ip ?? null,
    });
  }
  return cancelled.map((c) => c.id);
}

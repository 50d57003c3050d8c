import { randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { objectId, patientGlobals, type EvalContext } from "@core-care/survey-engine";
import type { TabletHandover } from "@core-care/schema";
import type { Db, DbOrTx } from "../db/index.js";
import { patients, tabletHandovers, tenants } from "../db/schema.js";
import { notFound } from "../errors.js";
import { audit } from "./audit.js";
import { findReadableSurveyRef } from "./documents.js";

/** Why a hand-over ended: submitted, idle past the timeout, taken back by staff, or signed out. */
export type HandoverEnd = "submit" | "idle" | "staff" | "logout";

/** What the patient credential of an open hand-over is bound to. */
export interface OpenHandover {
  tenantId: string;
  handoverId: string;
  patientId: string;
  surveyId: string;
  clientRequestId: string;
  resultId: string | null;
  staffUserId: string;
}

/**
 * Hands a tablet to a patient of the tenant for one of the surveys it reads: a new hand-over with the
 * client request id its one result will carry and a fresh key for what the tablet keeps between page loads.
 */
export async function startHandover(
  db: Db,
  input: { tenantId: string; staffUserId: string; patientId: string; surveyId: string },
): Promise<OpenHandover> {
  const [patient] = await db
    .select({ id: patients.id })
    .from(patients)
    .where(
      and(
        eq(patients.tenantId, input.tenantId),
        eq(patients.id, input.patientId),
        isNull(patients.deletedAt),
      ),
    );
  if (patient === undefined) throw notFound("Patient");
  if ((await findReadableSurveyRef(db, input.tenantId, input.surveyId)) === undefined)
    throw notFound("Survey");
  const handover: OpenHandover = {
    tenantId: input.tenantId,
    handoverId: objectId(),
    patientId: input.patientId,
    surveyId: input.surveyId,
    clientRequestId: objectId(),
    resultId: null,
    staffUserId: input.staffUserId,
  };
  await db.insert(tabletHandovers).values({
    tenantId: handover.tenantId,
    id: handover.handoverId,
    patientId: handover.patientId,
    surveyId: handover.surveyId,
    clientRequestId: handover.clientRequestId,
    staffUserId: handover.staffUserId,
    dataKey: randomBytes(32).toString("base64url"),
  });
  return handover;
}

/** The hand-over a patient credential names, while it is open. */
export async function findOpenHandover(
  db: DbOrTx,
  tenantId: string,
  handoverId: string,
): Promise<OpenHandover | undefined> {
  const [row] = await db
    .select()
    .from(tabletHandovers)
    .where(
      and(
        eq(tabletHandovers.tenantId, tenantId),
        eq(tabletHandovers.id, handoverId),
        isNull(tabletHandovers.endedAt),
      ),
    );
  return row === undefined
    ? undefined
    : {
        tenantId: row.tenantId,
        handoverId: row.id,
        patientId: row.patientId,
        surveyId: row.surveyId,
        clientRequestId: row.clientRequestId,
        resultId: row.resultId,
        staffUserId: row.staffUserId,
      };
}

/**
 * What the tablet needs of its hand-over: the binding, the patient's first name and preferred language,
 * the condition globals (sex, age, the practice and location; never the last name or birth date) and
 * the key of its stored copy.
 */
export async function handoverState(
  db: Db,
  handover: OpenHandover,
  idleTimeoutSeconds: number,
  today = new Date(),
): Promise<TabletHandover> {
  const [row] = await db
    .select({
      dataKey: tabletHandovers.dataKey,
      firstName: patients.firstName,
      preferredLanguage: patients.preferredLanguage,
      dob: patients.dob,
      sex: patients.sex,
      locationId: patients.locationId,
      settings: tenants.settings,
    })
    .from(tabletHandovers)
    .innerJoin(
      patients,
      and(eq(patients.tenantId, tabletHandovers.tenantId), eq(patients.id, tabletHandovers.patientId)),
    )
    .innerJoin(tenants, eq(tenants.id, tabletHandovers.tenantId))
    .where(and(eq(tabletHandovers.tenantId, handover.tenantId), eq(tabletHandovers.id, handover.handoverId)));
  if (row === undefined) throw notFound("Hand-over");
  const globals: Omit<EvalContext, "answers"> = patientGlobals(
    row,
    {
      id: handover.tenantId,
      settings: { teleAwvEmail: row.settings.teleAwvEmail, alternateFalls: row.settings.alternateFalls },
    },
    today,
  );
  return {
    handoverId: handover.handoverId,
    patientId: handover.patientId,
    surveyId: handover.surveyId,
    clientRequestId: handover.clientRequestId,
    resultId: handover.resultId,
    firstName: row.firstName,
    language: row.preferredLanguage === "es" ? "es" : "en",
    dataKey: row.dataKey,
    globals,
    idleTimeoutSeconds,
  };
}

/** Records the result the hand-over's first save created. */
export async function bindHandoverResult(db: Db, handover: OpenHandover, resultId: string): Promise<void> {
  await db
    .update(tabletHandovers)
    .set({ resultId })
    .where(
      and(
        eq(tabletHandovers.tenantId, handover.tenantId),
        eq(tabletHandovers.id, handover.handoverId),
        isNull(tabletHandovers.resultId),
      ),
    );
}

/**
 * Ends an open hand-over and audits its end once, whichever process or request gets there first; its
 * key goes with it, so what the tablet still holds can no longer be read. False when it had ended.
 */
export async function endHandover(
  db: Db,
  handover: { tenantId: string; handoverId: string },
  reason: HandoverEnd,
  actor: { userId: string | null; ip: string | null },
): Promise<boolean> {
  const ended = await db.transaction(async (tx) => {
    const rows = await tx
      .update(tabletHandovers)
      .set({ endedAt: new Date(), endReason: reason, dataKey: "" })
      .where(
        and(
          eq(tabletHandovers.tenantId, handover.tenantId),
          eq(tabletHandovers.id, handover.handoverId),
          isNull(tabletHandovers.endedAt),
        ),
      )
      .returning({ staffUserId: tabletHandovers.staffUserId });
    const row = rows[0];
    if (row === undefined) return false;
    await audit(tx, {
      tenantId: handover.tenantId,
      userId: actor.userId ?? row.staffUserId,
      action: "handover-end",
      entity: "tablet-handover",
      entityId: handover.handoverId,
      ip: actor.ip,
      details: { reason },
    });
    return true;
  });
  return ended;
}

/**
 * Ends, as idle, every open hand-over no live session holds any more (its browser went quiet past the
 * idle timeout, or was closed), with one audit event each.
 */
export async function endIdleHandovers(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(tabletHandovers)
      .set({ endedAt: new Date(), endReason: "idle", dataKey: "" })
      .where(
        and(
          isNull(tabletHandovers.endedAt),
          sql`${tabletHandovers.createdAt} < now() - interval '1 minute'`,
          sql`not exists (
            select 1 from sessions s
            where s.sess->>'handoverId' = ${tabletHandovers.id}
              and s.sess->>'tenantId' = ${tabletHandovers.tenantId}
              and s.expire > now())`,
        ),
      )
      .returning({
        tenantId: tabletHandovers.tenantId,
        id: tabletHandovers.id,
        staffUserId: tabletHandovers.staffUserId,
      });
    for (const row of ended) {
      await audit(tx, {
        tenantId: row.tenantId,
        userId: row.staffUserId,
        action: "handover-end",
        entity: "tablet-handover",
        entityId: row.id,
        details: { reason: "idle" },
      });
    }
    return ended.length;
  });
}

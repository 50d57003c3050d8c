import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { objectId, summarizeAwv, type Answers } from "@core-care/survey-engine";
import type { SafetyAlert } from "@core-care/schema";
import type { Db } from "../db/index.js";
import { tenants } from "../db/schema.js";
import type { Mailer } from "./mailer.js";

/** The kind of the alert a PHQ-9 item 9 above 'not at all' opens. */
export const SELF_HARM_ALERT_KIND = "phq9-self-harm";
/** The kind of the alert a PHQ-9 total in the severe band opens. */
export const SEVERE_DEPRESSION_ALERT_KIND = "phq9-severe";

/** An alert a result opens, before it is stored against the result and its patient. */
export type OpenedAlert = Pick<SafetyAlert, "id" | "kind" | "message">;

/**
 * The safety alerts a submitted result opens, whichever survey carried the PHQ items (the tablet's or the
 * Tele-AWV questionnaire): thoughts of self-harm, and a severe depression screen. Each stays on the results
 * screen until a clinician acknowledges it.
 */
export function safetyAlertsOf(answers: Answers): OpenedAlert[] {
  const summary = summarizeAwv(answers);
  const alerts: OpenedAlert[] = [];
  if (summary.phq9Item9Positive) {
    alerts.push({
      id: objectId(),
      kind: SELF_HARM_ALERT_KIND,
      message: "PHQ-9 item 9: thoughts of self-harm reported. Review today.",
    });
  }
  if (summary.phq.severity === "severe") {
    alerts.push({
      id: objectId(),
      kind: SEVERE_DEPRESSION_ALERT_KIND,
      message: `PHQ-9 total ${summary.phq.phq9}: severe depression screen.`,
    });
  }
  return alerts;
}

export interface AlertMailContext {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  publicUrl: string;
}

/**
 * E-mails the practice's safety address (tenant setting `safetyAlertEmail`) about alerts a result just
 * opened, with a link to the result and no patient data. A practice without the setting gets none. A
 * failure is logged, never thrown: the alert itself is already stored and shown.
 */
export async function mailSafetyAlerts(
  context: AlertMailContext,
  tenantId: string,
  resultId: string,
  alerts: OpenedAlert[],
): Promise<void> {
  if (alerts.length === 0) return;
  try {
    const [tenant] = await context.db
      .select({ settings: tenants.settings })
      .from(tenants)
      .where(eq(tenants.id, tenantId));
    const to = tenant?.settings.safetyAlertEmail;
    if (to === undefined) return;
    const selfHarm = alerts.some((alert) => alert.kind === SELF_HARM_ALERT_KIND);
    await context.mailer.send({
      to,
      subject: `Core Care safety alert: ${selfHarm ? "PHQ-9 item 9 positive" : "severe depression screen"}`,
      text:
        `A patient's answers opened a safety alert:\n\n${alerts.map((alert) => `- ${alert.message}`).join("\n")}\n\n` +
        `Please review the result today:\n${context.publicUrl.replace(/\/+$/, "")}/results/${resultId}\n`,
    });
  } catch (cause) {
    context.log.error({ code: (cause as { code?: unknown }).code, resultId }, "safety alert mail failed");
  }
}

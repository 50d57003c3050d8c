import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { buildPlan, RULES, suggestBilling, type BillingFacts } from "@core-care/prevention";
import { TELE_AWV_SURVEY_ID, WELCOME_TO_MEDICARE_EXAM_ID } from "@core-care/survey-engine";
import type { PreventionPlanResponse } from "@core-care/schema";
import type { Db } from "../db/index.js";
import { patients, surveyResults, tenants } from "../db/schema.js";
import { notFound } from "../errors.js";
import { factsFromAnswers, isAwvSurvey, type UnknownFact } from "./prevention-facts.js";
import { getResult } from "./survey-results.js";

/** The day (UTC) a result counts from: its submission, or its last save while a draft. */
const dayColumn = sql<string>`to_char(coalesce(${surveyResults.submittedAt}, ${surveyResults.updatedAt}) at time zone 'UTC', 'YYYY-MM-DD')`;

/** The records and vaccines each row of the table reads, by rule id. */
const ROW_FACTS = new Map(
  RULES.rows.map((row) => [
    row.id,
    [
      ...(row.tests ?? []).map((test) => `history.${test.record}`),
      ...(row.vaccine ? [`vaccines.${row.vaccine.record}`] : []),
    ],
  ]),
);

/** What to ask for an item: the unknown facts its row reads, where the item is not settled without them. */
function asksOf(ruleId: string, status: string, unknown: UnknownFact[]): string[] {
  if (status === "not-recommended" || status === "complete") return [];
  const reads = ROW_FACTS.get(ruleId) ?? [];
  return unknown.filter((u) => reads.includes(u.fact)).map((u) => u.ask);
}

/**
 * The personalised prevention plan of one result of the tenant (404 for another tenant's, a removed one
 * or one whose patient is removed): the facts from its answers and its patient's record, the plan of
 * @core-care/prevention on the result's day, and for a Tele-AWV result the billing suggestion from the
 * patient's earlier AWV and Welcome to Medicare results in the product.
 */
export async function preventionPlan(
  db: Db,
  tenantId: string,
  resultId: string,
  now: Date = new Date(),
): Promise<PreventionPlanResponse> {
  const result = await getResult(db, tenantId, resultId);
  const [[patient], [practice], [day]] = await Promise.all([
    db
      .select({
        id: patients.id,
        firstName: patients.firstName,
        lastName: patients.lastName,
        mrn: patients.mrn,
        dob: patients.dob,
        sex: patients.sex,
        preferredLanguage: patients.preferredLanguage,
      })
      .from(patients)
      .where(
        and(eq(patients.tenantId, tenantId), eq(patients.id, result.patientId), isNull(patients.deletedAt)),
      ),
    db.select({ id: tenants.id, name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId)),
    db
      .select({ day: dayColumn })
      .from(surveyResults)
      .where(and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.id, resultId))),
  ]);
  if (patient === undefined || practice === undefined || day === undefined) throw notFound("Survey result");
  const asOf = day.day;

  const { facts, unknown } = factsFromAnswers(result.answers, patient, asOf);
  const plan = buildPlan(facts);

  let billing: PreventionPlanResponse["billing"] = null;
  if (isAwvSurvey(result.surveyId)) {
    // The patient's other submitted AWVs and IPPE intakes before this result's day, as visits on record.
    const earlier = await db
      .select({ surveyId: surveyResults.surveyId, day: dayColumn })
      .from(surveyResults)
      .where(
        and(
          eq(surveyResults.tenantId, tenantId),
          eq(surveyResults.patientId, patient.id),
          ne(surveyResults.id, resultId),
          eq(surveyResults.isSubmitted, true),
          isNull(surveyResults.deletedAt),
          inArray(surveyResults.surveyId, [TELE_AWV_SURVEY_ID, WELCOME_TO_MEDICARE_EXAM_ID]),
        ),
      );
    const before = earlier.filter((row) => row.day < asOf);
    const awvDates = before
      .filter((row) => row.surveyId === TELE_AWV_SURVEY_ID)
      .map((row) => row.day)
      .sort();
    const ippeDate =
      before
        .filter((row) => row.surveyId === WELCOME_TO_MEDICARE_EXAM_ID)
        .map((row) => row.day)
        .sort()
        .at(-1) ?? null;
    const billingFacts: BillingFacts = {
      visitDate: asOf,
      awvDates,
      ...(ippeDate === null ? {} : { ippeDate }),
      // The HRA's PHQ-2 is a standardized depression screen done with this visit.
      ...(facts.measures?.phq2 === undefined ? {} : { depressionScreening: { done: true } }),
    };
    const advice = suggestBilling(billingFacts);
    billing = {
      rules: advice.rules,
      visit: advice.visit,
      addOns: advice.addOns,
      notes: advice.notes,
      awvDates,
      ippeDate,
    };
  }

  return {
    resultId: result.id,
    surveyId: result.surveyId,
    surveyTitle: result.surveyTitle,
    isSubmitted: result.isSubmitted,
    asOf,
    generatedAt: now.toISOString(),
    language: patient.preferredLanguage === "es" ? "es" : "en",
    practice,
    patient: {
      id: patient.id,
      firstName: patient.firstName,
      lastName: patient.lastName,
      mrn: patient.mrn,
      dob: patient.dob,
      sex: patient.sex,
    },
    rules: plan.rules,
    horizon: plan.horizon,
    items: plan.items.map((item) => {
      const ask = asksOf(item.ruleId, item.status, unknown);
      return ask.length > 0 ? { ...item, ask } : item;
    }),
    schedule: plan.schedule,
    riskFactors: plan.riskFactors,
    askAtVisit: unknown,
    billing,
    issues: plan.issues,
  };
}

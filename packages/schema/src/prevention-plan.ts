import { z } from "zod";
import { ObjectIdSchema, DocumentIdSchema, TimestampSchema } from "./common.js";

/** The public source a plan item, risk factor or billing code follows. */
export const PlanSourceSchema = z.object({
  name: z.string(),
  title: z.string(),
  url: z.string(),
  version: z.string(),
  grade: z.string().optional(),
});

const BothLanguagesSchema = z.object({ en: z.string(), es: z.string() });

/** One recommendation of the personalised prevention plan (@core-care/prevention's `PlanItem`). */
export const PlanItemSchema = z.object({
  /** One of the plan's topics (`colorectal-cancer`, ... `advance-care-planning`; docs/api.md lists them). */
  topic: z.string(),
  title: z.string(),
  /** `now`, a `YYYY-MM-DD` date, or `not-recommended`. */
  due: z.string(),
  status: z.enum(["due", "scheduled", "discuss", "review", "complete", "not-recommended"]),
  reason: z.string(),
  source: PlanSourceSchema,
  ruleId: z.string(),
  kind: z.string(),
  recommendation: z.string(),
  medicare: z
    .object({ coverage: z.string(), source: PlanSourceSchema, nextCovered: z.string().optional() })
    .optional(),
  patient: BothLanguagesSchema,
  schedule: z.array(z.string()),
  /** What to ask at the visit because the questionnaire did not ask it or the answer left it open. */
  ask: z.array(z.string()).optional(),
});
export type PlanItem = z.infer<typeof PlanItemSchema>;

export const PlanScheduleEntrySchema = z.object({
  date: z.string(),
  now: z.boolean(),
  topic: z.string(),
  title: z.string(),
  ruleId: z.string(),
  status: z.enum(["due", "discuss", "review"]),
});

export const PlanRiskFactorSchema = z.object({
  id: z.string(),
  area: z.string(),
  title: z.string(),
  found: z.string(),
  interventions: z.array(z.string()),
  advice: BothLanguagesSchema,
  source: PlanSourceSchema,
});

export const BillingSuggestionSchema = z.object({
  code: z.string(),
  modifier: z.literal("33").optional(),
  units: z.number().optional(),
  applies: z.boolean(),
  billableFrom: z.string().optional(),
  rule: z.string(),
  source: PlanSourceSchema,
});

const FactIssueSchema = z.object({ path: z.string(), code: z.string(), message: z.string() });
const RulesVersionSchema = z.object({ name: z.string(), version: z.string(), published: z.string() });

/** Answer of GET /api/surveyresults/{id}/plan: the plan for the patient of one result. */
export const PreventionPlanResponseSchema = z.object({
  resultId: ObjectIdSchema,
  surveyId: DocumentIdSchema,
  surveyTitle: z.string(),
  isSubmitted: z.boolean(),
  /** The plan's date: the day (UTC) the result was submitted, or last saved while a draft. */
  asOf: z.string(),
  generatedAt: TimestampSchema,
  /** The patient's preferred language (`en` unless the record says `es`). */
  language: z.enum(["en", "es"]),
  practice: z.object({ id: z.string(), name: z.string() }),
  patient: z.object({
    id: ObjectIdSchema,
    firstName: z.string(),
    lastName: z.string(),
    mrn: z.string(),
    dob: z.string(),
    sex: z.enum(["F", "M", "U"]),
  }),
  rules: RulesVersionSchema,
  horizon: z.object({ from: z.string(), to: z.string(), years: z.number() }),
  items: z.array(PlanItemSchema),
  schedule: z.array(PlanScheduleEntrySchema),
  riskFactors: z.array(PlanRiskFactorSchema),
  /** Facts the plan reads that the answers did not give: ask them at the visit. */
  askAtVisit: z.array(z.object({ fact: z.string(), ask: z.string() })),
  /** The visit code and add-ons for an AWV result (Tele-AWV); null for other surveys. */
  billing: z
    .object({
      rules: RulesVersionSchema,
      visit: BillingSuggestionSchema,
      addOns: z.array(BillingSuggestionSchema),
      notes: z.array(z.string()),
      /** The earlier AWVs and the IPPE the suggestion counted (results in the product). */
      awvDates: z.array(z.string()),
      ippeDate: z.string().nullable(),
    })
    .nullable(),
  issues: z.array(FactIssueSchema),
});
export type PreventionPlanResponse = z.infer<typeof PreventionPlanResponseSchema>;

export {
  ADVICE_AREAS,
  HISTORY_KEYS,
  ITEM_STATUSES,
  MEASURES,
  OFFERS,
  RISK_FLAGS,
  ROW_KINDS,
  SMOKING_STATUSES,
  TOPICS,
  VACCINE_KEYS,
} from "./vocabulary.js";
export type {
  AdviceArea,
  HistoryKey,
  ItemStatus,
  Measure,
  Offer,
  RiskFlag,
  RowKind,
  SmokingStatus,
  Topic,
  VaccineKey,
} from "./vocabulary.js";
export type {
  Criteria,
  Interval,
  MedicareCoverage,
  NumberRange,
  RiskFactorRow,
  RuleRow,
  RuleSource,
  RuleTest,
  RulesTable,
  VaccineRule,
  VaccineStep,
} from "./table.js";
export { ADVICE_PLACEHOLDERS, checkRulesTable } from "./check-table.js";
export type { TableIssue } from "./check-table.js";
export { RULES } from "./rules.js";
export type { FactIssue, PreventionFacts, Recorded, VaccineDose } from "./facts.js";
export { buildPlan, intervalWords } from "./plan.js";
export type { PlanItem, PlanOptions, PreventionPlan, RiskFactorFinding, ScheduleEntry } from "./plan.js";
export { BILLING_RULES, suggestBilling } from "./billing.js";
export type { BillingAdvice, BillingCode, BillingFacts, BillingRules, BillingSuggestion } from "./billing.js";
export { countSyllables, fleschKincaidGrade } from "./readability.js";

import raw from "./billing-rules.json" with { type: "json" };
import {
  addMonths,
  afterFullMonths,
  compareDates,
  formatDate,
  fullMonthsBetween,
  maxDate,
  parseDate,
  type CalendarDate,
} from "./dates.js";
import type { FactIssue } from "./facts.js";
import type { RuleSource } from "./table.js";

export type BillingCode = "G0438" | "G0439" | "G0444" | "99497" | "99498" | "G0136";

/** The billing rules table (`billing-rules.json`). */
export interface BillingRules {
  name: string;
  version: string;
  published: string;
  basis: string;
  rules: {
    awvFullMonths: number;
    ippeFullMonths: number;
    partBMonths: number;
    depressionScreeningFullMonths: number;
    acpFirstUnitMinutes: number;
    acpUnitMinutes: number;
    riskAssessmentMonths: number;
    g0136ActivityNutritionFrom: string;
  };
  codes: Record<
    BillingCode,
    { title: string; source: RuleSource; titleFrom2026?: string; sourceFrom2026?: RuleSource }
  >;
}

/** What the product knows of the patient's wellness visits, and what was done at this one. */
export interface BillingFacts {
  /** The visit's date of service, `YYYY-MM-DD`. */
  visitDate: string;
  /** Dates of the earlier AWVs (initial or subsequent) on record in the product. */
  awvDates?: string[];
  /** The IPPE ("Welcome to Medicare" visit, G0402) date, where known. */
  ippeDate?: string;
  /** The effective date of the patient's first Medicare Part B coverage, where known. */
  partBStart?: string;
  /** A standardized depression screen done at this visit, and the date G0444 was last billed, if known. */
  depressionScreening?: { done: boolean; lastBilled?: string };
  /** Voluntary advance care planning at this visit, face-to-face minutes. */
  advanceCarePlanning?: { minutes: number };
  /** A standardized risk assessment at this visit (G0136), and when G0136 was last billed. */
  riskAssessment?: { sdoh?: boolean; activityNutrition?: boolean; lastBilled?: string };
}

/** One code suggested (or not) for the visit, with the rule that decided it in words and its source. */
export interface BillingSuggestion {
  code: BillingCode;
  modifier?: "33";
  units?: number;
  /** Whether the code is suggested for this visit. */
  applies: boolean;
  /** For a visit too early: the first date it becomes billable. */
  billableFrom?: string;
  rule: string;
  source: RuleSource;
}

export interface BillingAdvice {
  rules: { name: string; version: string; published: string };
  /** G0438 or G0439. */
  visit: BillingSuggestion;
  /** G0444, 99497, 99498 and G0136, each applying or not with its reason. */
  addOns: BillingSuggestion[];
  notes: string[];
  issues: FactIssue[];
}

/** The built-in billing rules. */
export const BILLING_RULES: BillingRules = raw;

const iso = formatDate;

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "11 full months ago (December 2025 to October 2026)": the full calendar months after `from`'s month. */
function fullMonthsWords(from: CalendarDate, to: CalendarDate): string {
  const n = fullMonthsBetween(from, to);
  if (n === 0) return "no full month ago";
  const name = (d: CalendarDate) => `${MONTHS[d.month - 1]} ${d.year}`;
  const first = addMonths({ ...from, day: 1 }, 1);
  const last = addMonths({ ...to, day: 1 }, -1);
  return `${n} full month${n === 1 ? "" : "s"} ago (${n === 1 ? name(first) : `${name(first)} to ${name(last)}`})`;
}

function readDate(value: unknown, path: string, issues: FactIssue[]): CalendarDate | undefined {
  if (value === undefined) return undefined;
  const date = parseDate(value);
  if (!date) issues.push({ path, code: "invalidDate", message: "must be a YYYY-MM-DD date" });
  return date;
}

/**
 * Suggests the wellness visit's codes from the AWV history in the product and what was done at the visit:
 * G0438 (initial, once in a lifetime, not within 12 months of Part B's start or of the IPPE) or G0439
 * (subsequent, once 11 full months have passed after the month of the last AWV), with the date a visit too
 * early becomes billable; and the add-ons G0444, 99497 / 99498 with modifier 33, and G0136. Suggestions
 * only: the biller confirms eligibility in Medicare's records. Pure; never throws.
 */
export function suggestBilling(facts: BillingFacts, table: BillingRules = BILLING_RULES): BillingAdvice {
  const issues: FactIssue[] = [];
  const notes: string[] = [];
  const { rules, codes } = table;
  const rulesInfo = { name: table.name, version: table.version, published: table.published };
  const visit = parseDate(facts.visitDate);
  const none = (code: BillingCode, rule: string): BillingSuggestion => ({
    code,
    applies: false,
    rule,
    source: codes[code].source,
  });
  if (!visit) {
    issues.push({ path: "visitDate", code: "required", message: "must be a YYYY-MM-DD date" });
    return { rules: rulesInfo, visit: none("G0438", "no visit date"), addOns: [], notes, issues };
  }

  const earlier: CalendarDate[] = [];
  (facts.awvDates ?? []).forEach((value, i) => {
    const date = readDate(value, `awvDates[${i}]`, issues);
    if (!date) return;
    const order = compareDates(date, visit);
    if (order < 0) earlier.push(date);
    else if (order === 0)
      notes.push(`An AWV on record on ${iso(date)}, the visit's own date, is taken to be this visit.`);
    else issues.push({ path: `awvDates[${i}]`, code: "futureDate", message: "is after the visit; left out" });
  });
  earlier.sort(compareDates);
  let ippe = readDate(facts.ippeDate, "ippeDate", issues);
  if (ippe && compareDates(ippe, visit) >= 0) {
    issues.push({ path: "ippeDate", code: "futureDate", message: "is not before the visit; left out" });
    ippe = undefined;
  }
  const partB = readDate(facts.partBStart, "partBStart", issues);

  // The visit code.
  const last = earlier.at(-1);
  let visitSuggestion: BillingSuggestion;
  if (last) {
    const from = afterFullMonths(last, rules.awvFullMonths);
    const billableFrom =
      ippe && compareDates(ippe, last) > 0
        ? maxDate(from, afterFullMonths(ippe, rules.ippeFullMonths))
        : from;
    const months = fullMonthsWords(last, visit);
    const applies = compareDates(visit, billableFrom) >= 0;
    visitSuggestion = {
      code: "G0439",
      applies,
      ...(applies ? {} : { billableFrom: iso(billableFrom) }),
      rule: applies
        ? `subsequent: last AWV ${iso(last)}, ${months}; ${rules.awvFullMonths} full months needed`
        : `subsequent, too early: last AWV ${iso(last)}, only ${months}; ${rules.awvFullMonths} full months needed; billable from ${iso(billableFrom)}`,
      source: codes.G0439.source,
    };
  } else {
    const limits: { date: CalendarDate; words: string }[] = [];
    if (partB)
      limits.push({
        date: addMonths(partB, rules.partBMonths),
        words: `Part B began ${iso(partB)}: no AWV within its first ${rules.partBMonths} months (the IPPE, G0402, is the visit then)`,
      });
    if (ippe)
      limits.push({
        date: afterFullMonths(ippe, rules.ippeFullMonths),
        words: `IPPE ${iso(ippe)}, ${fullMonthsWords(ippe, visit)}; ${rules.ippeFullMonths} full months needed`,
      });
    const blocking = limits.filter((l) => compareDates(visit, l.date) < 0);
    const billableFrom = blocking.reduce<CalendarDate | undefined>(
      (a, l) => (a ? maxDate(a, l.date) : l.date),
      undefined,
    );
    const said = limits.map((l) => l.words).join("; ");
    visitSuggestion = {
      code: "G0438",
      applies: billableFrom === undefined,
      ...(billableFrom ? { billableFrom: iso(billableFrom) } : {}),
      rule: billableFrom
        ? `initial, too early: none on record, but ${blocking.map((l) => l.words).join("; ")}; billable from ${iso(billableFrom)}`
        : `initial AWV: none on record${said ? `; ${said}` : ""}`,
      source: codes.G0438.source,
    };
    notes.push(
      "G0438 is paid once in a lifetime: no AWV is on record in this product, so check Medicare's eligibility record for an AWV or IPPE billed elsewhere before billing it.",
    );
  }
  const awvBilled = visitSuggestion.applies;

  // G0444: annual depression screening, with the subsequent AWV only.
  const depression = facts.depressionScreening;
  let g0444: BillingSuggestion;
  if (!depression?.done) g0444 = none("G0444", "no standardized depression screen recorded at this visit");
  else if (visitSuggestion.code === "G0438")
    g0444 = none(
      "G0444",
      "not with the initial AWV (G0438): its review of depression risk includes the screen; G0444 goes with a subsequent AWV",
    );
  else if (!awvBilled) g0444 = none("G0444", "the subsequent AWV it goes with is not billable on this date");
  else {
    const lastBilled = readDate(depression.lastBilled, "depressionScreening.lastBilled", issues);
    const from = lastBilled ? afterFullMonths(lastBilled, rules.depressionScreeningFullMonths) : undefined;
    if (lastBilled && from && compareDates(visit, from) < 0)
      g0444 = {
        ...none(
          "G0444",
          `last G0444 ${iso(lastBilled)}, only ${fullMonthsWords(lastBilled, visit)}; ${rules.depressionScreeningFullMonths} full months needed; billable from ${iso(from)}`,
        ),
        billableFrom: iso(from),
      };
    else
      g0444 = {
        code: "G0444",
        applies: true,
        rule: `annual depression screening with a subsequent AWV${lastBilled ? `; last G0444 ${iso(lastBilled)}, ${fullMonthsWords(lastBilled, visit)}` : "; none billed in the past 12 months on record"}`,
        source: codes.G0444.source,
      };
  }

  // 99497 / 99498: voluntary advance care planning; modifier 33 with the AWV waives cost-sharing.
  const minutes = facts.advanceCarePlanning?.minutes;
  const addOns: BillingSuggestion[] = [g0444];
  if (minutes !== undefined && !(Number.isFinite(minutes) && minutes >= 0)) {
    issues.push({
      path: "advanceCarePlanning.minutes",
      code: "invalidValue",
      message: "must be minutes, 0 or more",
    });
  }
  const acpMinutes = minutes !== undefined && Number.isFinite(minutes) && minutes >= 0 ? minutes : undefined;
  const first = rules.acpFirstUnitMinutes;
  const unit = rules.acpUnitMinutes;
  const withAwv = awvBilled ? { modifier: "33" as const } : {};
  const costSharing = awvBilled
    ? "with the AWV on the same claim, modifier 33: no deductible or coinsurance"
    : "the AWV is not billable on this date, so without modifier 33: deductible and coinsurance apply";
  if (acpMinutes === undefined) addOns.push(none("99497", "no advance care planning recorded at this visit"));
  else if (acpMinutes < first)
    addOns.push(
      none("99497", `advance care planning of ${acpMinutes} minutes: the first unit needs at least ${first}`),
    );
  else
    addOns.push({
      code: "99497",
      ...withAwv,
      applies: true,
      rule: `advance care planning, ${acpMinutes} minutes face-to-face; ${costSharing}`,
      source: codes["99497"].source,
    });
  const extra =
    acpMinutes === undefined ? 0 : Math.max(0, Math.floor((acpMinutes - unit - first) / unit) + 1);
  addOns.push(
    extra > 0
      ? {
          code: "99498",
          ...withAwv,
          units: extra,
          applies: true,
          rule: `each 30 minutes past the first 30 (from ${unit + first} minutes in all): ${extra} unit${extra === 1 ? "" : "s"} for ${acpMinutes} minutes; ${costSharing}`,
          source: codes["99498"].source,
        }
      : none("99498", `needs ${unit + first} minutes or more of advance care planning`),
  );

  // G0136: an SDOH risk assessment to 2025; from 2026 CMS revised the code to a physical activity and nutrition assessment.
  const assessment = facts.riskAssessment;
  const from2026 = parseDate(rules.g0136ActivityNutritionFrom);
  const revised = from2026 !== undefined && compareDates(visit, from2026) >= 0;
  const g0136Source = revised && codes.G0136.sourceFrom2026 ? codes.G0136.sourceFrom2026 : codes.G0136.source;
  const what = revised ? "physical activity and nutrition assessment" : "SDOH risk assessment";
  const done = revised ? assessment?.activityNutrition === true : assessment?.sdoh === true;
  let g0136: BillingSuggestion;
  if (!done)
    g0136 = {
      code: "G0136",
      applies: false,
      rule:
        revised && assessment?.sdoh === true
          ? `from ${rules.g0136ActivityNutritionFrom} G0136 pays for a standardized physical activity and nutrition assessment, no longer an SDOH risk assessment (CY 2026 physician fee schedule)`
          : `no standardized ${what} recorded at this visit`,
      source: g0136Source,
    };
  else if (!awvBilled)
    g0136 = {
      code: "G0136",
      applies: false,
      rule: `the AWV it goes with is not billable on this date`,
      source: g0136Source,
    };
  else {
    const lastBilled = readDate(assessment?.lastBilled, "riskAssessment.lastBilled", issues);
    const next = lastBilled ? addMonths(lastBilled, rules.riskAssessmentMonths) : undefined;
    g0136 =
      lastBilled && next && compareDates(visit, next) < 0
        ? {
            code: "G0136",
            applies: false,
            billableFrom: iso(next),
            rule: `last G0136 ${iso(lastBilled)}: not more often than every ${rules.riskAssessmentMonths} months; billable from ${iso(next)}`,
            source: g0136Source,
          }
        : {
            code: "G0136",
            applies: true,
            rule: `standardized ${what} (5-15 minutes) with the AWV${lastBilled ? `; last G0136 ${iso(lastBilled)}` : ""}`,
            source: g0136Source,
          };
  }
  addOns.push(g0136);

  return { rules: rulesInfo, visit: visitSuggestion, addOns, notes, issues };
}

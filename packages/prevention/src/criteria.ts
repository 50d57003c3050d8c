import { addYears, compareDates, type CalendarDate } from "./dates.js";
import { ageAt, type NormalisedFacts } from "./facts.js";
import type { Criteria, NumberRange } from "./table.js";
import type { Measure, RiskFlag } from "./vocabulary.js";

/**
 * Whether criteria hold on a date: true, false, or undefined when a fact they need is unknown. `missing`
 * names the facts to ask for; `because` says, in words, what made them hold.
 */
export interface Outcome {
  value: boolean | undefined;
  missing: string[];
  because: string[];
}

const MEASURE_WORDS: Record<Measure, string> = {
  bmi: "BMI",
  phq2: "PHQ-2",
  phq9: "PHQ-9",
  phq9Item9: "PHQ-9 item 9",
  auditC: "AUDIT-C",
  steadi: "STEADI score",
  fallsPastYear: "falls in the past year",
  ad8: "AD8",
  activityMinutesPerWeek: "minutes of activity a week",
  cvdRisk10y: "10-year cardiovascular risk (%)",
};

const SMOKING_WORDS = { current: "smokes now", former: "quit smoking", never: "never smoked", unknown: "" };

const yes = (...because: string[]): Outcome => ({ value: true, missing: [], because });
const no: Outcome = { value: false, missing: [], because: [] };
const ask = (...missing: string[]): Outcome => ({ value: undefined, missing, because: [] });

function inRange(value: number, range: NumberRange): boolean {
  return (
    (range.atLeast === undefined || value >= range.atLeast) &&
    (range.below === undefined || value < range.below)
  );
}

function rangeWords(range: NumberRange): string {
  if (range.atLeast !== undefined && range.below !== undefined)
    return `${range.atLeast} to under ${range.below}`;
  return range.atLeast !== undefined ? `${range.atLeast} or more` : `under ${range.below}`;
}

function number(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function all(outcomes: Outcome[]): Outcome {
  if (outcomes.some((o) => o.value === false)) return no;
  const unknown = outcomes.filter((o) => o.value === undefined);
  if (unknown.length > 0)
    return { value: undefined, missing: [...new Set(unknown.flatMap((o) => o.missing))], because: [] };
  return yes(...outcomes.flatMap((o) => o.because));
}

/** Whether a former smoker's quit, known to lie in a span, is at least / below `years` before `date`. */
function quitYears(
  quit: { earliest: CalendarDate; latest: CalendarDate },
  date: CalendarDate,
  range: NumberRange,
): boolean | undefined {
  // Years since quitting lie between (date - latest) and (date - earliest).
  const atLeast = (n: number): boolean | undefined =>
    compareDates(date, addYears(quit.latest, n)) >= 0
      ? true
      : compareDates(date, addYears(quit.earliest, n)) < 0
        ? false
        : undefined;
  const parts: (boolean | undefined)[] = [];
  if (range.atLeast !== undefined) parts.push(atLeast(range.atLeast));
  if (range.below !== undefined) {
    const reached = atLeast(range.below);
    parts.push(reached === undefined ? undefined : !reached);
  }
  return parts.includes(false) ? false : parts.includes(undefined) ? undefined : true;
}

function everSmoked(facts: NormalisedFacts): boolean | undefined {
  const { status, smoked100 } = facts.smoking;
  if (status === "current" || status === "former" || smoked100 === true) return true;
  if (status === "never" || smoked100 === false) return false;
  return undefined;
}

/** Evaluates criteria for the patient on `date` (age and years since quitting move with the date). */
export function evaluateCriteria(criteria: Criteria, facts: NormalisedFacts, date: CalendarDate): Outcome {
  const parts: Outcome[] = [];

  if (criteria.age) {
    const age = ageAt(facts, date);
    const { from, to } = criteria.age;
    if (age === undefined) parts.push(ask("age or birth date"));
    else
      parts.push(
        (from === undefined || age >= from) && (to === undefined || age <= to) ? yes(`age ${age}`) : no,
      );
  }
  if (criteria.sex) {
    if (facts.sex === undefined) parts.push(ask("sex"));
    else parts.push(facts.sex === criteria.sex ? yes(facts.sex) : no);
  }
  const status = facts.smoking.status === "unknown" ? undefined : facts.smoking.status;
  if (criteria.smoking) {
    if (status === undefined) parts.push(ask("smoking status"));
    else parts.push(criteria.smoking.includes(status) ? yes(SMOKING_WORDS[status]) : no);
  }
  if (criteria.everSmoked !== undefined) {
    const ever = everSmoked(facts);
    if (ever === undefined) parts.push(ask("whether ever smoked"));
    else parts.push(ever === criteria.everSmoked ? yes(ever ? "has smoked" : "never smoked") : no);
  }
  if (criteria.packYears) {
    const packYears = facts.smoking.packYears ?? (status === "never" ? 0 : undefined);
    if (packYears === undefined) parts.push(ask("pack-years"));
    else parts.push(inRange(packYears, criteria.packYears) ? yes(`${number(packYears)} pack-years`) : no);
  }
  if (criteria.yearsSinceQuit) {
    const range = criteria.yearsSinceQuit;
    if (status === undefined) parts.push(ask("smoking status"));
    else if (status === "never") parts.push(no);
    else if (status === "current") parts.push(inRange(0, range) ? yes("smokes now") : no);
    else if (!facts.smoking.quit) parts.push(ask("when they quit smoking"));
    else {
      const held = quitYears(facts.smoking.quit, date, range);
      parts.push(
        held === undefined
          ? ask("the exact quit date")
          : held
            ? yes(`quit ${facts.smoking.quit.text} (${rangeWords(range)} years)`)
            : no,
      );
    }
  }
  const has = (flag: RiskFlag) => facts.flags.has(flag);
  if (criteria.flagsAll) parts.push(criteria.flagsAll.every(has) ? yes(...criteria.flagsAll) : no);
  if (criteria.flagsAny) {
    const found = criteria.flagsAny.filter(has);
    parts.push(found.length > 0 ? yes(...found) : no);
  }
  if (criteria.flagsNone) parts.push(criteria.flagsNone.some(has) ? no : yes());
  for (const [name, range] of Object.entries(criteria.measures ?? {}) as [Measure, NumberRange][]) {
    const value = facts.measures.get(name);
    if (value === undefined) parts.push(ask(MEASURE_WORDS[name]));
    else
      parts.push(
        inRange(value, range) ? yes(`${MEASURE_WORDS[name]} ${number(value)} (${rangeWords(range)})`) : no,
      );
  }
  if (criteria.anyOf) {
    const outcomes = criteria.anyOf.map((inner) => evaluateCriteria(inner, facts, date));
    const held = outcomes.find((o) => o.value === true);
    if (held) parts.push(held);
    else if (outcomes.every((o) => o.value === false)) parts.push(no);
    else
      parts.push({
        value: undefined,
        missing: [...new Set(outcomes.flatMap((o) => o.missing))],
        because: [],
      });
  }
  return all(parts);
}

/** Replaces `{measure}`, `{age}` and `{packYears}` with the patient's values; drops a sentence whose value is unknown. */
export function personalise(text: string, facts: NormalisedFacts): string {
  const values = new Map<string, string>();
  for (const [name, value] of facts.measures) values.set(name, number(value));
  const age = ageAt(facts, facts.asOf);
  if (age !== undefined) values.set("age", String(age));
  if (facts.smoking.packYears !== undefined) values.set("packYears", number(facts.smoking.packYears));
  return text
    .split(/(?<=[.!?])\s+/)
    .filter((sentence) => [...sentence.matchAll(/\{([^}]*)\}/g)].every((m) => values.has(m[1] ?? "")))
    .map((sentence) => sentence.replace(/\{([^}]*)\}/g, (_, name: string) => values.get(name) ?? ""))
    .join(" ");
}

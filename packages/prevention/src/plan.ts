import { evaluateCriteria, personalise } from "./criteria.js";
import {
  addDays,
  addMonths,
  addYears,
  afterFullMonths,
  compareDates,
  dateTurning,
  formatDate,
  type CalendarDate,
} from "./dates.js";
import {
  ageAt,
  normaliseFacts,
  type DoseState,
  type FactIssue,
  type NormalisedFacts,
  type PreventionFacts,
} from "./facts.js";
import { RULES } from "./rules.js";
import type {
  Interval,
  RiskFactorRow,
  RuleRow,
  RuleSource,
  RuleTest,
  RulesTable,
  VaccineRule,
} from "./table.js";
import type { AdviceArea, ItemStatus, RowKind, Topic } from "./vocabulary.js";

/** One recommendation for the patient, with when it is due and why. */
export interface PlanItem {
  topic: Topic;
  title: string;
  /** `now`, a `YYYY-MM-DD` date, or `not-recommended` (not recommended, not applicable, or done once). */
  due: string;
  status: ItemStatus;
  /** Why, in the clinician's words: what is on record, the rule, and the facts it rests on. */
  reason: string;
  source: RuleSource;
  ruleId: string;
  kind: RowKind;
  recommendation: string;
  /** Medicare's coverage, and the first day Medicare covers the test again where the table says how often. */
  medicare?: { coverage: string; source: RuleSource; nextCovered?: string };
  /** Plain-language text for the patient (aimed at US grade 6). */
  patient: { en: string; es: string };
  /** Every date the item falls due within the horizon; the plan's date stands for "now". */
  schedule: string[];
}

/** A line of the written screening schedule. */
export interface ScheduleEntry {
  date: string;
  /** True for an entry due on the plan's date. */
  now: boolean;
  topic: Topic;
  title: string;
  ruleId: string;
  status: "due" | "discuss" | "review";
}

/** A risk factor or condition found, with the interventions recommended and the patient's advice. */
export interface RiskFactorFinding {
  id: string;
  area: AdviceArea;
  title: string;
  /** What was found, in words: "BMI 32 (30 or more)". */
  found: string;
  interventions: string[];
  advice: { en: string; es: string };
  source: RuleSource;
}

/** The personalised prevention plan. Decision support: a clinician reviews and edits it. */
export interface PreventionPlan {
  rules: { name: string; version: string; published: string };
  asOf: string;
  horizon: { from: string; to: string; years: number };
  items: PlanItem[];
  schedule: ScheduleEntry[];
  riskFactors: RiskFactorFinding[];
  issues: FactIssue[];
}

export interface PlanOptions {
  /** Years the written schedule covers, 5 to 10 (CMS asks for the next 5-10 years); 10 by default. */
  horizonYears?: number;
  /** Another table, checked with `checkRulesTable`; the built-in one by default. */
  rules?: RulesTable;
}

type Match =
  | { kind: "row"; row: RuleRow; because: string[] }
  | { kind: "unknown"; row: RuleRow; missing: string[] }
  | { kind: "none" };

const ACTIVE = new Set(["routine", "individual"]);

function apply(date: CalendarDate, interval: Exclude<Interval, "once">): CalendarDate {
  if ("years" in interval) return addYears(date, interval.years);
  if ("months" in interval) return addMonths(date, interval.months);
  return afterFullMonths(date, interval.fullMonths);
}

/** An interval in words: "every 2 years", "once every 12 months (11 full months after the last)". */
export function intervalWords(interval: Interval): string {
  if (interval === "once") return "once";
  if ("years" in interval) return interval.years === 1 ? "every year" : `every ${interval.years} years`;
  if ("months" in interval) return `every ${interval.months} months`;
  return `once every ${interval.fullMonths + 1} months (${interval.fullMonths} full months after the month of the last)`;
}

const iso = formatDate;

class GroupEvaluator {
  constructor(
    private readonly rows: RuleRow[],
    private readonly facts: NormalisedFacts,
    private readonly horizonEnd: CalendarDate,
  ) {}

  private match(date: CalendarDate): Match {
    for (const row of this.rows) {
      const outcome = evaluateCriteria(row.population, this.facts, date);
      if (outcome.value === true) return { kind: "row", row, because: outcome.because };
      // An unknown fact matters only where it could lead to an offer: a row that offers nothing is passed.
      if (outcome.value === undefined && ACTIVE.has(row.offer))
        return { kind: "unknown", row, missing: outcome.missing };
    }
    return { kind: "none" };
  }

  /** Days on which a row may start to apply: birthdays, and anniversaries of quitting smoking. */
  private changeDates(): CalendarDate[] {
    const { asOf, birth, smoking } = this.facts;
    const dates: CalendarDate[] = [];
    const age = ageAt(this.facts, asOf);
    if (age !== undefined)
      for (let n = 1; n <= 11; n++) dates.push(birth ? dateTurning(birth, age + n) : addYears(asOf, n));
    if (smoking.quit)
      for (let n = 1; n <= 80; n++) {
        dates.push(addYears(smoking.quit.earliest, n), addYears(smoking.quit.latest, n));
      }
    return dates
      .filter((d) => compareDates(d, asOf) > 0 && compareDates(d, this.horizonEnd) <= 0)
      .sort(compareDates)
      .filter((d, i, list) => i === 0 || compareDates(d, list[i - 1] as CalendarDate) !== 0);
  }

  evaluate(): PlanItem | undefined {
    const { asOf } = this.facts;
    const now = this.match(asOf);
    if (now.kind === "unknown") return this.review(now.row, `ask or check: ${now.missing.join(", ")}`);
    if (now.kind === "row" && !ACTIVE.has(now.row.offer)) return this.notRecommended(now.row, now.because);
    if (now.kind === "row") return this.project(now.row, asOf, now.because);
    for (const date of this.changeDates()) {
      const later = this.match(date);
      if (later.kind === "row" && ACTIVE.has(later.row.offer))
        return this.project(later.row, date, later.because);
      if (later.kind === "unknown") return undefined;
    }
    return undefined;
  }

  private base(row: RuleRow): Omit<PlanItem, "due" | "status" | "reason" | "schedule"> {
    return {
      topic: row.topic,
      title: row.title,
      source: row.source,
      ruleId: row.id,
      kind: row.kind,
      recommendation: row.recommendation,
      ...(row.medicare ? { medicare: { coverage: row.medicare.coverage, source: row.medicare.source } } : {}),
      patient: row.patient,
    };
  }

  private review(row: RuleRow, what: string): PlanItem {
    return {
      ...this.base(row),
      due: "now",
      status: "review",
      reason: `Review now: ${what}. ${row.recommendation}`,
      schedule: [iso(this.facts.asOf)],
    };
  }

  private notRecommended(row: RuleRow, because: string[], lead?: string): PlanItem {
    const facts = because.filter(Boolean);
    return {
      ...this.base(row),
      due: "not-recommended",
      status: "not-recommended",
      reason: `${lead ?? (row.offer === "not-applicable" ? "Not applicable" : "Not recommended")}: ${row.recommendation}${
        facts.length > 0 ? ` (${facts.join("; ")})` : ""
      }`,
      schedule: [],
    };
  }

  /** The next due date of a row from `from` on, given what is on record (or simulated as done). */
  private nextDue(row: RuleRow, from: CalendarDate, done?: { date: CalendarDate; test?: RuleTest }): Due {
    if (row.tests) return this.nextTest(row.tests, from, done);
    if (row.vaccine) return this.nextVaccine(row.vaccine, from, done?.date);
    if (done)
      return row.repeat && row.repeat !== "once"
        ? { kind: "due", date: apply(done.date, row.repeat), lead: "" }
        : { kind: "end" };
    return { kind: "due", date: from, lead: "" };
  }

  private nextTest(
    tests: RuleTest[],
    from: CalendarDate,
    done?: { date: CalendarDate; test?: RuleTest },
  ): Due {
    let best: { date: CalendarDate; test: RuleTest; text: string } | undefined;
    let onceDone: string | undefined;
    const states: string[] = [];
    for (const test of tests) {
      const simulated = done?.test === test;
      const state = simulated ? undefined : this.facts.history.get(test.record);
      let last: CalendarDate | undefined;
      let text = "";
      if (simulated && done) {
        last = done.date;
        text = iso(done.date);
      } else if (state?.kind === "date") {
        // A date known only to the year or month counts from its first day, so the plan errs early.
        last = state.earliest;
        text = state.text.length < 10 ? `${state.text} (exact date not recorded)` : state.text;
      } else if (state?.kind === "never" || state?.kind === "unknown")
        states.push(`${test.name}: ${state.kind === "never" ? "never" : "date not known"}`);
      if (!last) continue;
      if (test.every === "once") {
        onceDone = `${test.name} done ${text}; a one-time screening`;
        continue;
      }
      const due = apply(last, test.every);
      if (!best || compareDates(due, best.date) > 0) best = { date: due, test, text };
    }
    if (onceDone !== undefined && !best) return { kind: "complete", lead: onceDone };
    if (!best) {
      const named = tests.length === 1 ? (tests[0] as RuleTest).name : "screening";
      const lead =
        states.length === 0
          ? `no ${named} on record`
          : `${states.join("; ")}${states.length < tests.length ? "; nothing else on record" : ""}`;
      return { kind: "due", date: from, lead, test: tests[0] };
    }
    const { date, test, text } = best;
    const lead = `last ${test.name} ${text}, ${intervalWords(test.every)}`;
    return {
      kind: "due",
      date: compareDates(date, from) < 0 ? from : date,
      lead,
      test,
      overdueSince: compareDates(date, from) < 0 ? date : undefined,
    };
  }

  private nextVaccine(rule: VaccineRule, from: CalendarDate, simulated?: CalendarDate): Due {
    const state = this.facts.vaccines.get(rule.record) ?? { kind: "none" as const };
    switch (rule.schedule) {
      case "season": {
        const season = (d: CalendarDate) => (d.month >= rule.seasonStartMonth ? d.year : d.year - 1);
        const start = (year: number) => ({ year, month: rule.seasonStartMonth, day: 1 });
        const offer = (year: number) => {
          const date = { year, month: rule.offerFromMonth, day: 1 };
          return compareDates(date, start(year)) < 0 ? addYears(date, 1) : date;
        };
        const current = season(from);
        const lastDose = simulated
          ? { earliest: simulated, latest: simulated, text: iso(simulated) }
          : state.kind === "doses"
            ? state.doses.at(-1)
            : undefined;
        if (lastDose && compareDates(lastDose.earliest, start(current)) >= 0)
          return { kind: "due", date: offer(current + 1), lead: `this season's dose given ${lastDose.text}` };
        if (lastDose && compareDates(lastDose.latest, start(current)) >= 0)
          return {
            kind: "review",
            lead: `a dose in ${lastDose.text} may or may not be this season's: confirm its month`,
          };
        const offerDate = offer(current);
        const lead = lastDose
          ? `last dose ${lastDose.text}, before this season`
          : describeState(state.kind, "dose");
        return {
          kind: "due",
          date: compareDates(offerDate, from) > 0 ? offerDate : from,
          lead: `${lead}; give ${rule.give}`,
        };
      }
      case "booster": {
        const doses = state.kind === "doses" ? state.doses : [];
        const last = simulated ?? doses.at(-1)?.earliest;
        if (!last)
          return {
            kind: "due",
            date: from,
            lead: `${describeState(state.kind, "dose")}; give ${rule.first ?? rule.give}, then ${rule.give} every ${rule.everyYears} years`,
          };
        const products = doses.map((d) => d.product);
        const needsFirst =
          rule.first !== undefined &&
          products.length > 0 &&
          products.every((p) => p !== undefined) &&
          !products.includes(rule.first);
        const give = needsFirst
          ? `${rule.first} (none on record)`
          : rule.first && !simulated
            ? `${rule.give} (${rule.first} if none as an adult)`
            : rule.give;
        const due = addYears(last, rule.everyYears);
        return {
          kind: "due",
          date: compareDates(due, from) < 0 ? from : due,
          lead: `last dose ${simulated ? iso(simulated) : doses.at(-1)?.text}, every ${rule.everyYears} years; give ${give}`,
          overdueSince: compareDates(due, from) < 0 ? due : undefined,
        };
      }
      case "doses": {
        if (simulated) return { kind: "end" };
        if (state.kind !== "doses")
          return { kind: "due", date: from, lead: `${describeState(state.kind, "dose")}; give ${rule.give}` };
        const doses = state.doses;
        if (rule.doses === 1)
          return {
            kind: "complete",
            lead: `a dose on record (${doses.map((d) => d.text).join(", ")}); a single dose is not repeated`,
          };
        const products = doses.map((d) => d.product);
        if (products.some((p) => p === undefined)) {
          if (
            rule.doses !== undefined &&
            doses.length >= rule.doses &&
            products.every((p) => p === undefined)
          )
            return {
              kind: "complete",
              lead: `${doses.length === 1 ? "a dose" : `${doses.length} doses`} on record (${doses.map((d) => d.text).join(", ")})`,
            };
          return {
            kind: "review",
            lead: `${doses.length === 1 ? "a dose" : `${doses.length} doses`} on record (${doses.map((d) => d.text).join(", ")}) without the product: check which vaccine was given`,
          };
        }
        const given = products as string[];
        const complete = rule.complete.find((set) => containsAll(given, set));
        if (complete) return { kind: "complete", lead: `series complete: ${given.join(" + ")} on record` };
        const step = rule.next.find((s) => sameProducts(s.after, given));
        if (!step)
          return { kind: "review", lead: `${given.join(" + ")} on record: check what the series needs` };
        const last = doses.at(-1) as DoseState;
        const due = addMonths(last.earliest, step.afterMonths);
        return {
          kind: "due",
          date: compareDates(due, from) < 0 ? from : due,
          lead: `${given.join(" + ")} on record (last ${last.text}); give ${step.give}`,
          ...(step.offer === "individual" ? { individual: true } : {}),
        };
      }
    }
  }

  private project(first: RuleRow, start: CalendarDate, because: string[]): PlanItem {
    const entries: {
      date: CalendarDate;
      row: RuleRow;
      due: Extract<Due, { kind: "due" }>;
      because: string[];
    }[] = [];
    let row = first;
    let at = start;
    let rowBecause = because;
    let done: { date: CalendarDate; test?: RuleTest } | undefined;
    for (let guard = 0; guard < 60; guard++) {
      const next = this.nextDue(row, at, done);
      if (next.kind === "end") break;
      if (next.kind === "complete") {
        if (entries.length === 0)
          return {
            ...this.base(row),
            due: "not-recommended",
            status: "complete",
            reason: `Complete: ${next.lead}. ${row.recommendation}`,
            schedule: [],
          };
        break;
      }
      if (next.kind === "review") {
        if (entries.length === 0) return this.review(row, next.lead);
        break;
      }
      if (compareDates(next.date, this.horizonEnd) > 0) {
        if (entries.length === 0) {
          const later = this.match(next.date);
          if (later.kind === "row" && !ACTIVE.has(later.row.offer))
            return this.notRecommended(
              later.row,
              [],
              `Not due again: ${next.lead}; the next would fall on ${iso(next.date)} (age ${ageAt(this.facts, next.date) ?? "unknown"}), when it is not recommended`,
            );
          return this.item(row, next, [], rowBecause);
        }
        break;
      }
      const then =
        compareDates(next.date, at) === 0
          ? { kind: "row" as const, row, because: rowBecause }
          : this.match(next.date);
      if (then.kind === "unknown") {
        if (entries.length === 0) return this.review(then.row, `ask or check: ${then.missing.join(", ")}`);
        break;
      }
      if (then.kind === "none" || !ACTIVE.has(then.row.offer)) {
        if (entries.length === 0) {
          const lead = `Not due again: ${next.lead}; the next would fall on ${iso(next.date)} (age ${ageAt(this.facts, next.date) ?? "unknown"})`;
          if (then.kind === "row") return this.notRecommended(then.row, then.because, lead);
          return {
            ...this.base(row),
            due: "not-recommended",
            status: "not-recommended",
            reason: `${lead}, outside the ages or risks this covers. ${row.recommendation}`,
            schedule: [],
          };
        }
        break;
      }
      row = then.row;
      rowBecause = then.because;
      entries.push({ date: next.date, row, due: next, because: rowBecause });
      // One "decide together" entry is enough: whether it repeats is the patient's and clinician's choice.
      if (row.offer === "individual" || next.individual) break;
      done = { date: next.date, ...(next.test ? { test: next.test } : {}) };
      at = addDays(next.date, 1);
    }
    const firstEntry = entries[0];
    if (!firstEntry) return this.review(first, "the schedule could not be worked out");
    return this.item(
      firstEntry.row,
      firstEntry.due,
      entries.map((e) => e.date),
      firstEntry.because,
    );
  }

  private item(
    row: RuleRow,
    next: Extract<Due, { kind: "due" }>,
    dates: CalendarDate[],
    because: string[],
  ): PlanItem {
    const { asOf } = this.facts;
    const isNow = compareDates(next.date, asOf) <= 0;
    const discuss = row.offer === "individual" || next.individual === true;
    const status: ItemStatus = discuss ? "discuss" : isNow ? "due" : "scheduled";
    const when = isNow
      ? next.overdueSince
        ? `Due now (since ${iso(next.overdueSince)})`
        : "Due now"
      : `Due ${iso(next.date)}${ageAt(this.facts, next.date) !== undefined && compareDates(next.date, asOf) > 0 ? ` (age ${ageAt(this.facts, next.date)})` : ""}`;
    const lead = discuss ? `Decide together; ${when.toLowerCase()}` : when;
    const facts = because.filter(Boolean);
    const medicare = row.medicare
      ? { coverage: row.medicare.coverage, source: row.medicare.source, ...this.medicareNext(row) }
      : undefined;
    return {
      ...this.base(row),
      ...(medicare ? { medicare } : {}),
      due: isNow ? "now" : iso(next.date),
      status,
      reason: `${lead}${next.lead ? `: ${next.lead}` : ""}. ${row.recommendation}${facts.length > 0 ? ` (${facts.join("; ")})` : ""}`,
      schedule: dates.map(iso),
    };
  }

  /** The first day Medicare covers a test again, from the test on record with a Medicare interval. */
  private medicareNext(row: RuleRow): { nextCovered?: string } {
    let next: CalendarDate | undefined;
    let any = false;
    for (const test of row.tests ?? []) {
      if (!test.medicareEvery) continue;
      any = true;
      const state = this.facts.history.get(test.record);
      if (state?.kind !== "date" || test.medicareEvery === "once") continue;
      // Medicare counts from the actual date: a year-only record cannot tell, so its last day is used.
      const covered = apply(state.latest, test.medicareEvery);
      if (!next || compareDates(covered, next) > 0) next = covered;
    }
    if (!any) return {};
    return { nextCovered: !next || compareDates(next, this.facts.asOf) <= 0 ? "now" : iso(next) };
  }
}

type Due =
  | {
      kind: "due";
      date: CalendarDate;
      lead: string;
      test?: RuleTest | undefined;
      overdueSince?: CalendarDate | undefined;
      individual?: boolean;
    }
  | { kind: "complete"; lead: string }
  | { kind: "review"; lead: string }
  | { kind: "end" };

function describeState(kind: "never" | "unknown" | "none" | "doses", what: string): string {
  return kind === "never"
    ? `never had a ${what}`
    : kind === "unknown"
      ? `${what} history not known`
      : `no ${what} on record`;
}

function counts(list: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const item of list) map.set(item.toUpperCase(), (map.get(item.toUpperCase()) ?? 0) + 1);
  return map;
}

function containsAll(given: string[], wanted: string[]): boolean {
  const have = counts(given);
  return [...counts(wanted)].every(([name, n]) => (have.get(name) ?? 0) >= n);
}

function sameProducts(a: string[], b: string[]): boolean {
  return a.length === b.length && containsAll(a, b);
}

function findRiskFactors(rows: RiskFactorRow[], facts: NormalisedFacts): RiskFactorFinding[] {
  const found: RiskFactorFinding[] = [];
  for (const row of rows) {
    const outcome = evaluateCriteria(row.trigger, facts, facts.asOf);
    if (outcome.value !== true) continue;
    found.push({
      id: row.id,
      area: row.area,
      title: row.title,
      found: outcome.because.filter(Boolean).join("; "),
      interventions: row.interventions,
      advice: { en: personalise(row.advice.en, facts), es: personalise(row.advice.es, facts) },
      source: row.source,
    });
  }
  return found;
}

/**
 * Builds the personalised prevention plan from the facts: each recommendation of the rules table that
 * applies, when it is due and why, the written schedule over the horizon, and the risk factors found with
 * their interventions and advice. Pure: the plan's date comes in with the facts; never throws.
 */
export function buildPlan(input: PreventionFacts, options: PlanOptions = {}): PreventionPlan {
  const table = options.rules ?? RULES;
  const { facts, issues } = normaliseFacts(input);
  let years = options.horizonYears ?? 10;
  if (!Number.isInteger(years) || years < 5 || years > 10) {
    issues.push({ path: "horizonYears", code: "outOfRange", message: "must be 5 to 10 years; 10 is used" });
    years = 10;
  }
  const rules = { name: table.name, version: table.version, published: table.published };
  if (!facts)
    return {
      rules,
      asOf: input.asOf,
      horizon: { from: input.asOf, to: input.asOf, years },
      items: [],
      schedule: [],
      riskFactors: [],
      issues,
    };
  const horizonEnd = addYears(facts.asOf, years);

  const groups = new Map<string, RuleRow[]>();
  for (const row of table.rows) {
    const key = row.group ?? row.topic;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const items: PlanItem[] = [];
  for (const rows of groups.values()) {
    const item = new GroupEvaluator(rows, facts, horizonEnd).evaluate();
    if (item) items.push(item);
  }

  const schedule: ScheduleEntry[] = items
    .flatMap((item) =>
      item.schedule.map((date) => ({
        date,
        now: date === iso(facts.asOf),
        topic: item.topic,
        title: item.title,
        ruleId: item.ruleId,
        status:
          item.status === "discuss"
            ? ("discuss" as const)
            : item.status === "review"
              ? ("review" as const)
              : ("due" as const),
      })),
    )
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

  return {
    rules,
    asOf: iso(facts.asOf),
    horizon: { from: iso(facts.asOf), to: iso(horizonEnd), years },
    items,
    schedule,
    riskFactors: findRiskFactors(table.riskFactors, facts),
    issues,
  };
}

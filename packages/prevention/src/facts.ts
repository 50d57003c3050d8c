import { addDays, addYears, ageOn, compareDates, formatDate, parseDate, type CalendarDate } from "./dates.js";
import {
  HISTORY_KEYS,
  MEASURES,
  RISK_FLAGS,
  SMOKING_STATUSES,
  VACCINE_KEYS,
  type HistoryKey,
  type Measure,
  type RiskFlag,
  type SmokingStatus,
  type VaccineKey,
} from "./vocabulary.js";

/**
 * When something was last done: `"never"`, `"unknown"` (the patient does not know), or a date as
 * precise as it is known: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a year as a number.
 */
export type Recorded = string | number;

/** One dose of a vaccine, with its product when known (`PCV20`, `RZV`, `Tdap`, ...). */
export interface VaccineDose {
  date: Recorded;
  product?: string;
}

/** What the plan is built from. Only `asOf` is required; what is missing makes the plan ask. */
export interface PreventionFacts {
  /** The day the plan is for, `YYYY-MM-DD`. */
  asOf: string;
  /** `YYYY-MM-DD`; preferred to `age`, since it dates the birthdays in the schedule. */
  birthDate?: string;
  /** Whole years on `asOf`, when the birth date is not known. */
  age?: number;
  /** Sex the screening criteria name (the organs present are told by flags such as `cervix-removed`). */
  sex?: "female" | "male" | "unknown";
  smoking?: {
    status: SmokingStatus;
    packYears?: number;
    /** When a former smoker quit: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. */
    quitDate?: Recorded;
    /** Whole years since quitting on `asOf`, when the quit date is not known. */
    yearsSinceQuit?: number;
    /** Smoked at least 100 cigarettes in a lifetime. */
    smoked100?: boolean;
  };
  history?: Partial<Record<HistoryKey, Recorded>>;
  /** The last dose, or every dose with its product. */
  vaccines?: Partial<Record<VaccineKey, Recorded | VaccineDose[]>>;
  flags?: RiskFlag[];
  measures?: Partial<Record<Measure, number>>;
}

/** A fact that could not be used, at its path (`history.mammogram`); the plan goes on without it. */
export interface FactIssue {
  path: string;
  code: "required" | "invalidDate" | "futureDate" | "invalidValue" | "unknownName" | "outOfRange";
  message: string;
}

/** A date known to lie between `earliest` and `latest` (the same day when the full date is known). */
export interface DateSpan {
  earliest: CalendarDate;
  latest: CalendarDate;
  /** As given: "2023", "2023-05", "2023-05-14". */
  text: string;
}

export type RecordState =
  { kind: "never" } | { kind: "unknown" } | { kind: "none" } | ({ kind: "date" } & DateSpan);

export interface DoseState extends DateSpan {
  product?: string;
}

export type VaccineState =
  { kind: "never" } | { kind: "unknown" } | { kind: "none" } | { kind: "doses"; doses: DoseState[] };

/** The facts checked and put in the shapes the rules read. */
export interface NormalisedFacts {
  asOf: CalendarDate;
  birth?: CalendarDate;
  /** Age on `asOf` when only the age was given. */
  givenAge?: number;
  sex?: "female" | "male";
  smoking: {
    status?: SmokingStatus;
    packYears?: number;
    quit?: DateSpan;
    smoked100?: boolean;
  };
  history: Map<HistoryKey, RecordState>;
  vaccines: Map<VaccineKey, VaccineState>;
  flags: Set<RiskFlag>;
  measures: Map<Measure, number>;
}

/** Reads `YYYY`, `YYYY-MM`, `YYYY-MM-DD` or a year number as the span of days it may mean. */
export function parseSpan(value: Recorded): DateSpan | undefined {
  const text = typeof value === "number" ? String(value) : value.trim();
  const day = parseDate(text);
  if (day) return { earliest: day, latest: day, text };
  const month = /^(\d{4})-(\d{2})$/.exec(text);
  if (month) {
    const first = parseDate(`${month[1]}-${month[2]}-01`);
    if (!first) return undefined;
    const next =
      first.month === 12 ? { year: first.year + 1, month: 1, day: 1 } : { ...first, month: first.month + 1 };
    return { earliest: first, latest: addDays(next, -1), text };
  }
  const year = /^(\d{4})$/.exec(text);
  if (year && Number(year[1]) >= 1900) {
    const y = Number(year[1]);
    return { earliest: { year: y, month: 1, day: 1 }, latest: { year: y, month: 12, day: 31 }, text };
  }
  return undefined;
}

function readRecord(value: unknown, path: string, asOf: CalendarDate, issues: FactIssue[]): RecordState {
  if (value === undefined || value === null || value === "") return { kind: "none" };
  if (value === "never") return { kind: "never" };
  if (value === "unknown") return { kind: "unknown" };
  const span = typeof value === "string" || typeof value === "number" ? parseSpan(value) : undefined;
  if (!span) {
    issues.push({
      path,
      code: "invalidDate",
      message: 'must be "never", "unknown", YYYY, YYYY-MM or YYYY-MM-DD',
    });
    return { kind: "unknown" };
  }
  if (compareDates(span.earliest, asOf) > 0) {
    issues.push({ path, code: "futureDate", message: "is after the plan's date" });
    return { kind: "unknown" };
  }
  // A span that runs past the plan's date (this year, year only) ends on the plan's date.
  return { kind: "date", ...span, latest: compareDates(span.latest, asOf) > 0 ? asOf : span.latest };
}

/** Checks the facts; never throws. A fact that cannot be read is reported and treated as unknown. */
export function normaliseFacts(facts: PreventionFacts): { facts?: NormalisedFacts; issues: FactIssue[] } {
  const issues: FactIssue[] = [];
  const asOf = parseDate(facts.asOf);
  if (!asOf) return { issues: [{ path: "asOf", code: "required", message: "must be a YYYY-MM-DD date" }] };

  let birth: CalendarDate | undefined;
  let givenAge: number | undefined;
  if (facts.birthDate !== undefined) {
    birth = parseDate(facts.birthDate);
    if (!birth) issues.push({ path: "birthDate", code: "invalidDate", message: "must be a YYYY-MM-DD date" });
    else if (compareDates(birth, asOf) > 0) {
      issues.push({ path: "birthDate", code: "futureDate", message: "is after the plan's date" });
      birth = undefined;
    } else if (facts.age !== undefined && facts.age !== ageOn(birth, asOf))
      issues.push({
        path: "age",
        code: "invalidValue",
        message: "does not match the birth date; the birth date is used",
      });
  }
  if (!birth && facts.age !== undefined) {
    if (Number.isInteger(facts.age) && facts.age >= 0 && facts.age <= 130) givenAge = facts.age;
    else issues.push({ path: "age", code: "invalidValue", message: "must be whole years, 0-130" });
  }

  let sex: "female" | "male" | undefined;
  if (facts.sex === "female" || facts.sex === "male") sex = facts.sex;
  else if (facts.sex !== undefined && facts.sex !== "unknown")
    issues.push({ path: "sex", code: "invalidValue", message: "must be female, male or unknown" });

  const smoking: NormalisedFacts["smoking"] = {};
  const given = facts.smoking;
  if (given !== undefined) {
    if (SMOKING_STATUSES.includes(given.status)) smoking.status = given.status;
    else
      issues.push({
        path: "smoking.status",
        code: "unknownName",
        message: `must be one of ${SMOKING_STATUSES.join(", ")}`,
      });
    if (given.packYears !== undefined) {
      if (Number.isFinite(given.packYears) && given.packYears >= 0 && given.packYears <= 300)
        smoking.packYears = given.packYears;
      else
        issues.push({ path: "smoking.packYears", code: "invalidValue", message: "must be a number, 0-300" });
    }
    if (typeof given.smoked100 === "boolean") smoking.smoked100 = given.smoked100;
    if (given.quitDate !== undefined) {
      const quit = readRecord(given.quitDate, "smoking.quitDate", asOf, issues);
      if (quit.kind === "date") smoking.quit = quit;
    } else if (given.yearsSinceQuit !== undefined) {
      const years = given.yearsSinceQuit;
      if (Number.isFinite(years) && years >= 0 && years <= 120) {
        // "Quit 15 years ago" in whole years: the quit date lies between 16 years and 15 years before.
        const whole = Math.floor(years);
        smoking.quit = {
          earliest: addDays(addYears(asOf, -(whole + 1)), 1),
          latest: addYears(asOf, -whole),
          text: `${whole} years before ${formatDate(asOf)}`,
        };
      } else
        issues.push({
          path: "smoking.yearsSinceQuit",
          code: "invalidValue",
          message: "must be a number, 0-120",
        });
    }
  }

  const history = new Map<HistoryKey, RecordState>();
  for (const [key, value] of Object.entries(facts.history ?? {})) {
    if (!HISTORY_KEYS.includes(key as HistoryKey)) {
      issues.push({ path: `history.${key}`, code: "unknownName", message: "is not a known test" });
      continue;
    }
    history.set(key as HistoryKey, readRecord(value, `history.${key}`, asOf, issues));
  }

  const vaccines = new Map<VaccineKey, VaccineState>();
  for (const [key, value] of Object.entries(facts.vaccines ?? {})) {
    if (!VACCINE_KEYS.includes(key as VaccineKey)) {
      issues.push({ path: `vaccines.${key}`, code: "unknownName", message: "is not a known vaccine" });
      continue;
    }
    const name = key as VaccineKey;
    if (!Array.isArray(value)) {
      const record = readRecord(value, `vaccines.${key}`, asOf, issues);
      vaccines.set(name, record.kind === "date" ? { kind: "doses", doses: [record] } : record);
      continue;
    }
    const doses: DoseState[] = [];
    value.forEach((dose: VaccineDose, i) => {
      const record = readRecord(dose?.date, `vaccines.${key}[${i}].date`, asOf, issues);
      if (record.kind !== "date") {
        if (record.kind !== "unknown")
          issues.push({
            path: `vaccines.${key}[${i}].date`,
            code: "invalidDate",
            message: "a dose needs its date",
          });
        return;
      }
      const product =
        typeof dose.product === "string" && dose.product.trim() !== "" ? dose.product.trim() : undefined;
      doses.push({
        earliest: record.earliest,
        latest: record.latest,
        text: record.text,
        ...(product ? { product } : {}),
      });
    });
    doses.sort((a, b) => compareDates(a.earliest, b.earliest));
    vaccines.set(name, doses.length > 0 ? { kind: "doses", doses } : { kind: "unknown" });
  }

  const flags = new Set<RiskFlag>();
  (facts.flags ?? []).forEach((flag, i) => {
    if (RISK_FLAGS.includes(flag)) flags.add(flag);
    else
      issues.push({
        path: `flags[${i}]`,
        code: "unknownName",
        message: `"${String(flag)}" is not a known flag`,
      });
  });

  const measures = new Map<Measure, number>();
  for (const [key, value] of Object.entries(facts.measures ?? {})) {
    if (!MEASURES.includes(key as Measure)) {
      issues.push({ path: `measures.${key}`, code: "unknownName", message: "is not a known measure" });
      continue;
    }
    if (typeof value === "number" && Number.isFinite(value) && value >= 0)
      measures.set(key as Measure, value);
    else
      issues.push({ path: `measures.${key}`, code: "invalidValue", message: "must be a number, 0 or more" });
  }

  return {
    facts: {
      asOf,
      ...(birth ? { birth } : {}),
      ...(givenAge !== undefined ? { givenAge } : {}),
      ...(sex ? { sex } : {}),
      smoking,
      history,
      vaccines,
      flags,
      measures,
    },
    issues,
  };
}

/** Whole years of age on `date`; from a given age, the years added since `asOf` (the birthday unknown). */
export function ageAt(facts: NormalisedFacts, date: CalendarDate): number | undefined {
  if (facts.birth) return ageOn(facts.birth, date);
  if (facts.givenAge === undefined) return undefined;
  return facts.givenAge + ageOn(facts.asOf, date);
}

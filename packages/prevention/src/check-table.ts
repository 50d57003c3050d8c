import type { Criteria, RulesTable } from "./table.js";
import {
  ADVICE_AREAS,
  HISTORY_KEYS,
  MEASURES,
  OFFERS,
  RISK_FLAGS,
  ROW_KINDS,
  SMOKING_STATUSES,
  TOPICS,
  VACCINE_KEYS,
} from "./vocabulary.js";

/** A fault in a rules table, at a path such as `rows[3].population.age.from`. */
export interface TableIssue {
  path: string;
  code:
    | "required"
    | "type"
    | "unknownName"
    | "unknownField"
    | "duplicateId"
    | "invalidUrl"
    | "invalidRange"
    | "invalidDate"
    | "unknownPlaceholder";
  message: string;
}

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

class Checker {
  readonly issues: TableIssue[] = [];

  add(path: string, code: TableIssue["code"], message: string): void {
    this.issues.push({ path, code, message });
  }

  fields(value: Obj, path: string, allowed: readonly string[]): void {
    for (const key of Object.keys(value))
      if (!allowed.includes(key)) this.add(`${path}.${key}`, "unknownField", `unknown field "${key}"`);
  }

  object(value: unknown, path: string): value is Obj {
    if (isObject(value)) return true;
    this.add(path, value === undefined ? "required" : "type", "must be an object");
    return false;
  }

  text(value: unknown, path: string, optional = false): void {
    if (value === undefined && optional) return;
    if (typeof value !== "string" || value.trim() === "")
      this.add(path, value === undefined ? "required" : "type", "must be non-empty text");
  }

  number(value: unknown, path: string, optional = false): void {
    if (value === undefined && optional) return;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
      this.add(path, value === undefined ? "required" : "type", "must be a number, 0 or more");
  }

  oneOf(value: unknown, path: string, names: readonly string[], optional = false): void {
    if (value === undefined && optional) return;
    if (typeof value !== "string" || !names.includes(value))
      this.add(path, value === undefined ? "required" : "unknownName", `must be one of ${names.join(", ")}`);
  }

  list(value: unknown, path: string, names: readonly string[]): void {
    if (value === undefined) return;
    if (!Array.isArray(value) || value.length === 0) {
      this.add(path, "type", "must be a non-empty list");
      return;
    }
    value.forEach((item, i) => this.oneOf(item, `${path}[${i}]`, names));
  }

  range(value: unknown, path: string): void {
    if (value === undefined) return;
    if (!this.object(value, path)) return;
    this.fields(value, path, ["atLeast", "below"]);
    this.number(value.atLeast, `${path}.atLeast`, true);
    this.number(value.below, `${path}.below`, true);
    if (value.atLeast === undefined && value.below === undefined)
      this.add(path, "invalidRange", "needs atLeast or below");
    if (typeof value.atLeast === "number" && typeof value.below === "number" && value.atLeast >= value.below)
      this.add(path, "invalidRange", "atLeast must be below below");
  }

  source(value: unknown, path: string): void {
    if (!this.object(value, path)) return;
    this.fields(value, path, ["name", "title", "url", "version", "grade"]);
    this.text(value.name, `${path}.name`);
    this.text(value.title, `${path}.title`);
    this.text(value.version, `${path}.version`);
    this.text(value.grade, `${path}.grade`, true);
    if (typeof value.url !== "string" || !/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}(\/\S*)?$/i.test(value.url))
      this.add(`${path}.url`, "invalidUrl", "must be a public https URL");
  }

  interval(value: unknown, path: string): void {
    if (value === "once") return;
    if (!this.object(value, path)) return;
    const keys = Object.keys(value);
    if (keys.length !== 1 || !["years", "months", "fullMonths"].includes(keys[0] ?? ""))
      this.add(path, "type", 'must be "once", { years }, { months } or { fullMonths }');
    else this.number(value[keys[0] as string], `${path}.${keys[0]}`);
  }

  criteria(value: unknown, path: string): void {
    if (!this.object(value, path)) return;
    const c = value as Obj & Partial<Record<keyof Criteria, unknown>>;
    this.fields(c, path, [
      "age",
      "sex",
      "smoking",
      "everSmoked",
      "packYears",
      "yearsSinceQuit",
      "flagsAll",
      "flagsAny",
      "flagsNone",
      "measures",
      "anyOf",
    ]);
    if (c.age !== undefined && this.object(c.age, `${path}.age`)) {
      this.fields(c.age, `${path}.age`, ["from", "to"]);
      this.number(c.age.from, `${path}.age.from`, true);
      this.number(c.age.to, `${path}.age.to`, true);
      if (typeof c.age.from === "number" && typeof c.age.to === "number" && c.age.from > c.age.to)
        this.add(`${path}.age`, "invalidRange", "from must not be after to");
    }
    this.oneOf(c.sex, `${path}.sex`, ["female", "male"], true);
    this.list(c.smoking, `${path}.smoking`, SMOKING_STATUSES);
    if (c.everSmoked !== undefined && typeof c.everSmoked !== "boolean")
      this.add(`${path}.everSmoked`, "type", "must be true or false");
    this.range(c.packYears, `${path}.packYears`);
    this.range(c.yearsSinceQuit, `${path}.yearsSinceQuit`);
    this.list(c.flagsAll, `${path}.flagsAll`, RISK_FLAGS);
    this.list(c.flagsAny, `${path}.flagsAny`, RISK_FLAGS);
    this.list(c.flagsNone, `${path}.flagsNone`, RISK_FLAGS);
    if (c.measures !== undefined && this.object(c.measures, `${path}.measures`))
      for (const [name, range] of Object.entries(c.measures)) {
        this.oneOf(name, `${path}.measures.${name}`, MEASURES);
        this.range(range, `${path}.measures.${name}`);
      }
    if (c.anyOf !== undefined) {
      if (!Array.isArray(c.anyOf) || c.anyOf.length < 2) this.add(`${path}.anyOf`, "type", "needs 2 or more");
      else c.anyOf.forEach((inner, i) => this.criteria(inner, `${path}.anyOf[${i}]`));
    }
  }

  products(value: unknown, path: string): void {
    if (!Array.isArray(value) || value.length === 0) this.add(path, "type", "must be a non-empty list");
    else value.forEach((p, i) => this.text(p, `${path}[${i}]`));
  }

  vaccine(value: unknown, path: string): void {
    if (!this.object(value, path)) return;
    this.oneOf(value.record, `${path}.record`, VACCINE_KEYS);
    this.text(value.give, `${path}.give`);
    switch (value.schedule) {
      case "season":
        this.fields(value, path, ["record", "schedule", "give", "seasonStartMonth", "offerFromMonth"]);
        for (const key of ["seasonStartMonth", "offerFromMonth"]) {
          const month = value[key];
          if (typeof month !== "number" || !Number.isInteger(month) || month < 1 || month > 12)
            this.add(`${path}.${key}`, "type", "must be a month, 1-12");
        }
        break;
      case "doses":
        this.fields(value, path, ["record", "schedule", "give", "doses", "complete", "next"]);
        this.number(value.doses, `${path}.doses`, true);
        if (!Array.isArray(value.complete) || value.complete.length === 0)
          this.add(`${path}.complete`, "type", "must list the product sets that complete the series");
        else value.complete.forEach((set, i) => this.products(set, `${path}.complete[${i}]`));
        if (!Array.isArray(value.next)) this.add(`${path}.next`, "type", "must be a list");
        else
          value.next.forEach((step, i) => {
            const at = `${path}.next[${i}]`;
            if (!this.object(step, at)) return;
            this.fields(step, at, ["after", "give", "afterMonths", "offer"]);
            this.products(step.after, `${at}.after`);
            this.text(step.give, `${at}.give`);
            this.number(step.afterMonths, `${at}.afterMonths`);
            this.oneOf(step.offer, `${at}.offer`, ["routine", "individual"], true);
          });
        break;
      case "booster":
        this.fields(value, path, ["record", "schedule", "give", "everyYears", "first"]);
        this.number(value.everyYears, `${path}.everyYears`);
        this.text(value.first, `${path}.first`, true);
        break;
      default:
        this.add(`${path}.schedule`, "unknownName", "must be season, doses or booster");
    }
  }

  patientText(value: unknown, path: string): void {
    if (!this.object(value, path)) return;
    this.fields(value, path, ["en", "es"]);
    this.text(value.en, `${path}.en`);
    this.text(value.es, `${path}.es`);
  }
}

/** The `{name}` placeholders advice may use: the measures and the patient's age and pack-years. */
export const ADVICE_PLACEHOLDERS: readonly string[] = [...MEASURES, "age", "packYears"];

/**
 * Checks a rules table (parsed JSON) against the vocabulary: every field known, every name from the
 * closed lists, every row citing an https source with its version, ids unique. Returns the table typed
 * when there is no issue.
 */
export function checkRulesTable(raw: unknown): { table?: RulesTable; issues: TableIssue[] } {
  const check = new Checker();
  if (!check.object(raw, "$")) return { issues: check.issues };
  check.fields(raw, "$", ["$comment", "name", "version", "published", "basis", "rows", "riskFactors"]);
  check.text(raw.name, "name");
  check.text(raw.version, "version");
  check.text(raw.basis, "basis");
  if (typeof raw.published !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(raw.published))
    check.add("published", "invalidDate", "must be a YYYY-MM-DD date");
  const ids = new Set<string>();
  const uniqueId = (id: unknown, path: string) => {
    check.text(id, path);
    if (typeof id !== "string") return;
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id)) check.add(path, "type", "must be kebab-case");
    if (ids.has(id)) check.add(path, "duplicateId", `"${id}" is used twice`);
    ids.add(id);
  };

  if (!Array.isArray(raw.rows) || raw.rows.length === 0) check.add("rows", "required", "must list rows");
  else
    raw.rows.forEach((row: unknown, i) => {
      const path = `rows[${i}]`;
      if (!check.object(row, path)) return;
      check.fields(row, path, [
        "id",
        "topic",
        "group",
        "kind",
        "title",
        "offer",
        "population",
        "tests",
        "vaccine",
        "repeat",
        "recommendation",
        "medicare",
        "source",
        "patient",
        "note",
      ]);
      uniqueId(row.id, `${path}.id`);
      check.oneOf(row.topic, `${path}.topic`, TOPICS);
      check.text(row.group, `${path}.group`, true);
      check.oneOf(row.kind, `${path}.kind`, ROW_KINDS);
      check.text(row.title, `${path}.title`);
      check.oneOf(row.offer, `${path}.offer`, OFFERS);
      check.criteria(row.population, `${path}.population`);
      if (row.tests !== undefined) {
        if (!Array.isArray(row.tests) || row.tests.length === 0)
          check.add(`${path}.tests`, "type", "must be a non-empty list");
        else
          row.tests.forEach((test: unknown, j) => {
            const at = `${path}.tests[${j}]`;
            if (!check.object(test, at)) return;
            check.fields(test, at, ["record", "name", "every", "medicareEvery"]);
            check.oneOf(test.record, `${at}.record`, HISTORY_KEYS);
            check.text(test.name, `${at}.name`);
            check.interval(test.every, `${at}.every`);
            if (test.medicareEvery !== undefined) check.interval(test.medicareEvery, `${at}.medicareEvery`);
          });
      }
      if (row.vaccine !== undefined) check.vaccine(row.vaccine, `${path}.vaccine`);
      if (row.tests !== undefined && row.vaccine !== undefined)
        check.add(path, "type", "a row has tests or a vaccine, not both");
      if (row.repeat !== undefined) check.interval(row.repeat, `${path}.repeat`);
      check.text(row.recommendation, `${path}.recommendation`);
      if (row.medicare !== undefined && check.object(row.medicare, `${path}.medicare`)) {
        check.fields(row.medicare, `${path}.medicare`, ["coverage", "source"]);
        check.text(row.medicare.coverage, `${path}.medicare.coverage`);
        check.source(row.medicare.source, `${path}.medicare.source`);
      }
      check.source(row.source, `${path}.source`);
      check.patientText(row.patient, `${path}.patient`);
      check.text(row.note, `${path}.note`, true);
    });

  if (!Array.isArray(raw.riskFactors)) check.add("riskFactors", "required", "must be a list");
  else
    raw.riskFactors.forEach((factor: unknown, i) => {
      const path = `riskFactors[${i}]`;
      if (!check.object(factor, path)) return;
      check.fields(factor, path, ["id", "area", "title", "trigger", "interventions", "advice", "source"]);
      uniqueId(factor.id, `${path}.id`);
      check.oneOf(factor.area, `${path}.area`, ADVICE_AREAS);
      check.text(factor.title, `${path}.title`);
      check.criteria(factor.trigger, `${path}.trigger`);
      if (!Array.isArray(factor.interventions) || factor.interventions.length === 0)
        check.add(`${path}.interventions`, "required", "must list interventions");
      else factor.interventions.forEach((text, j) => check.text(text, `${path}.interventions[${j}]`));
      check.patientText(factor.advice, `${path}.advice`);
      if (isObject(factor.advice))
        for (const language of ["en", "es"]) {
          const text = factor.advice[language];
          if (typeof text !== "string") continue;
          for (const match of text.matchAll(/\{([^}]*)\}/g))
            if (!ADVICE_PLACEHOLDERS.includes(match[1] ?? ""))
              check.add(
                `${path}.advice.${language}`,
                "unknownPlaceholder",
                `unknown placeholder {${match[1]}}`,
              );
        }
      check.source(factor.source, `${path}.source`);
    });

  return check.issues.length === 0
    ? { table: raw as unknown as RulesTable, issues: [] }
    : { issues: check.issues };
}

import { describe, expect, test } from "vitest";
import { BILLING_RULES } from "./billing.js";
import { checkRulesTable } from "./check-table.js";
import { buildPlan } from "./plan.js";
import { RULES } from "./rules.js";
import raw from "./rules.json" with { type: "json" };
import type { RuleSource, RulesTable } from "./table.js";
import { woman } from "./test/people.js";
import { ADVICE_AREAS, TOPICS } from "./vocabulary.js";

/** The topics the API documents (issue 38), each of which the table must cover. */
const DOCUMENTED_TOPICS = [
  "colorectal-cancer",
  "breast-cancer",
  "cervical-cancer",
  "lung-cancer",
  "osteoporosis",
  "aaa",
  "hepatitis-c",
  "diabetes",
  "hypertension",
  "statin",
  "obesity",
  "falls",
  "depression",
  "alcohol",
  "tobacco",
  "cognition",
  "hearing",
  "influenza",
  "pneumococcal",
  "zoster",
  "td-tdap",
  "rsv",
  "covid-19",
  "advance-care-planning",
];

const copy = (): Record<string, unknown> & {
  rows: Record<string, unknown>[];
  riskFactors: Record<string, unknown>[];
} => JSON.parse(JSON.stringify(raw)) as never;

function expectSource(source: RuleSource, where: string): void {
  expect(source.url, where).toMatch(/^https:\/\/[a-z0-9.-]+\.(gov|org|com)\//);
  expect(source.version.trim(), where).not.toBe("");
  expect(source.name.trim(), where).not.toBe("");
  expect(source.title.trim(), where).not.toBe("");
}

describe("the rules table", () => {
  test("passes its own check, with a version and a publication date", () => {
    expect(checkRulesTable(raw).issues).toEqual([]);
    expect(RULES.version).toMatch(/^\d{4}\.\d+\.\d+$/);
    expect(RULES.basis).toContain("a clinician reviews each row");
  });

  test("every row and risk factor cites a public source URL with the version it follows", () => {
    for (const row of RULES.rows) {
      expectSource(row.source, row.id);
      if (row.medicare) expectSource(row.medicare.source, `${row.id} medicare`);
      expect(row.recommendation.trim(), row.id).not.toBe("");
    }
    for (const factor of RULES.riskFactors) expectSource(factor.source, factor.id);
    for (const [code, { source, sourceFrom2026 }] of Object.entries(BILLING_RULES.codes)) {
      expectSource(source, code);
      if (sourceFrom2026) expectSource(sourceFrom2026, `${code} from 2026`);
    }
  });

  test("every USPSTF row says its grade and every USPSTF source is the Task Force's site", () => {
    for (const row of RULES.rows.filter((r) => r.source.name === "USPSTF")) {
      expect(row.source.url, row.id).toMatch(
        /^https:\/\/www\.uspreventiveservicestaskforce\.org\/uspstf\/recommendation\//,
      );
      expect(row.source.version, row.id).toMatch(/^Final recommendation statement, \d{4}-\d{2}-\d{2}$/);
    }
    const graded = RULES.rows.filter((r) => r.source.grade !== undefined);
    expect(graded.every((r) => ["A", "B", "C", "D", "I"].includes(r.source.grade ?? ""))).toBe(true);
    // A and B are offered; C and I are decided together; D is not recommended.
    for (const row of graded) {
      const grade = row.source.grade ?? "";
      const offer = { A: "routine", B: "routine", C: "individual", I: "individual", D: "not-recommended" }[
        grade
      ];
      expect(row.offer, row.id).toBe(offer);
    }
  });

  test("every topic is from the fixed list, and the table covers each documented topic", () => {
    for (const row of RULES.rows) expect(TOPICS, row.id).toContain(row.topic);
    expect(TOPICS.slice(0, DOCUMENTED_TOPICS.length)).toEqual(DOCUMENTED_TOPICS);
    for (const topic of DOCUMENTED_TOPICS)
      expect(
        RULES.rows.some((r) => r.topic === topic),
        topic,
      ).toBe(true);
  });

  test("has a risk factor with interventions and advice for each area CMS asks advice on", () => {
    for (const area of ADVICE_AREAS)
      expect(
        RULES.riskFactors.some((r) => r.area === area),
        area,
      ).toBe(true);
    for (const factor of RULES.riskFactors) expect(factor.interventions.length, factor.id).toBeGreaterThan(0);
  });

  test("every row and risk factor has patient text in English and Spanish", () => {
    for (const { id, patient } of RULES.rows) {
      expect(patient.en.length, id).toBeGreaterThan(20);
      expect(patient.es.length, id).toBeGreaterThan(20);
      expect(patient.es, id).not.toBe(patient.en);
    }
    for (const { id, advice } of RULES.riskFactors) expect(advice.es, id).not.toBe(advice.en);
  });
});

describe("checkRulesTable", () => {
  test.each([
    [
      "a topic not in the list",
      (t: ReturnType<typeof copy>) => ((t.rows[0] as Record<string, unknown>).topic = "colon"),
      "rows[0].topic",
      "unknownName",
    ],
    [
      "a source without a URL",
      (t: ReturnType<typeof copy>) => delete (t.rows[1] as { source: Record<string, unknown> }).source.url,
      "rows[1].source.url",
      "invalidUrl",
    ],
    [
      "an http URL",
      (t: ReturnType<typeof copy>) =>
        ((t.rows[2] as { source: Record<string, unknown> }).source.url = "http://example.org/x"),
      "rows[2].source.url",
      "invalidUrl",
    ],
    [
      "a misspelt flag",
      (t: ReturnType<typeof copy>) =>
        ((t.rows[0] as { population: Record<string, unknown> }).population.flagsAll = ["colorectal-hi-risk"]),
      "rows[0].population.flagsAll[0]",
      "unknownName",
    ],
    [
      "a duplicate id",
      (t: ReturnType<typeof copy>) =>
        ((t.rows[3] as Record<string, unknown>).id = (t.rows[2] as Record<string, unknown>).id),
      "rows[3].id",
      "duplicateId",
    ],
    [
      "ages the wrong way round",
      (t: ReturnType<typeof copy>) =>
        ((t.rows[2] as { population: Record<string, unknown> }).population.age = { from: 75, to: 50 }),
      "rows[2].population.age",
      "invalidRange",
    ],
    [
      "a misspelt field",
      (t: ReturnType<typeof copy>) => ((t.rows[2] as Record<string, unknown>).populaton = {}),
      "rows[2].populaton",
      "unknownField",
    ],
    [
      "an unknown interval",
      (t: ReturnType<typeof copy>) =>
        ((t.rows[2] as { tests: Record<string, unknown>[] }).tests[0]!.every = { decades: 1 }),
      "rows[2].tests[0].every",
      "type",
    ],
    [
      "an advice placeholder no fact fills",
      (t: ReturnType<typeof copy>) =>
        ((t.riskFactors[0] as { advice: Record<string, unknown> }).advice.en = "Your score is {score}."),
      "riskFactors[0].advice.en",
      "unknownPlaceholder",
    ],
    [
      "Spanish text left out",
      (t: ReturnType<typeof copy>) => delete (t.rows[4] as { patient: Record<string, unknown> }).patient.es,
      "rows[4].patient.es",
      "required",
    ],
  ])("reports %s at its path", (_name, edit, path, code) => {
    const table = copy();
    edit(table);
    const { table: checked, issues } = checkRulesTable(table);
    expect(checked).toBeUndefined();
    expect(issues).toContainEqual(expect.objectContaining({ path, code }));
  });

  test("a clinician's change to the data changes the plan: yearly mammograms", () => {
    const table = copy();
    const row = table.rows.find((r) => r.id === "breast-40-74") as { tests: { every: unknown }[] };
    row.tests[0]!.every = { years: 1 };
    const { table: checked, issues } = checkRulesTable(table);
    expect(issues).toEqual([]);
    const facts = woman(60, { history: { mammogram: "2026-01-15" } });
    expect(buildPlan(facts).items.find((i) => i.topic === "breast-cancer")?.due).toBe("2028-01-15");
    const changed = buildPlan(facts, { rules: checked as RulesTable });
    expect(changed.items.find((i) => i.topic === "breast-cancer")?.due).toBe("2027-01-15");
    expect(changed.rules.version).toBe(RULES.version);
  });
});

import { describe, expect, test } from "vitest";
import { scorePhq, summarizeAwv } from "./scoring.js";

const phq = (items: Record<string, string>) => ({ depression: items });
const allNine = (value: string) =>
  phq(
    Object.fromEntries(
      [
        "phq9LittleInterest",
        "phq9Hopeless",
        "phq9Sleep",
        "phq9Tired",
        "phq9Appetite",
        "phq9Failure",
        "phq9Concentration",
        "phq9Movement",
        "phq9SelfHarm",
      ].map((item) => [item, value]),
    ),
  );

describe("scorePhq", () => {
  test("scores PHQ-2 alone when the further items were not asked", () => {
    expect(scorePhq(phq({ phq9LittleInterest: "not at all", phq9Hopeless: "not at all" }))).toEqual({
      phq2: 0,
      phq2Positive: false,
      phq9: null,
      severity: null,
    });
  });

  test("screens PHQ-2 positive at 3", () => {
    expect(
      scorePhq(phq({ phq9LittleInterest: "several days", phq9Hopeless: "more than half the days" })),
    ).toMatchObject({ phq2: 3, phq2Positive: true });
    expect(
      scorePhq(phq({ phq9LittleInterest: "several days", phq9Hopeless: "several days" })).phq2Positive,
    ).toBe(false);
  });

  test.each([
    ["not at all", 0, "none-minimal"],
    ["several days", 9, "mild"],
    ["more than half the days", 18, "moderately severe"],
    ["nearly every day", 27, "severe"],
  ])("totals nine items answered %j as %i (%s)", (value, total, severity) => {
    expect(scorePhq(allNine(value))).toMatchObject({ phq9: total, severity });
  });

  test.each([
    [4, "none-minimal"],
    [5, "mild"],
    [9, "mild"],
    [10, "moderate"],
    [14, "moderate"],
    [15, "moderately severe"],
    [19, "moderately severe"],
    [20, "severe"],
  ])("bands a total of %i as %s", (total, severity) => {
    const items = [
      "phq9LittleInterest",
      "phq9Hopeless",
      "phq9Sleep",
      "phq9Tired",
      "phq9Appetite",
      "phq9Failure",
      "phq9Concentration",
      "phq9Movement",
      "phq9SelfHarm",
    ];
    const labels = ["not at all", "several days", "more than half the days", "nearly every day"];
    let left = total;
    const answers = Object.fromEntries(
      items.map((item) => {
        const points = Math.min(3, left);
        left -= points;
        return [item, labels[points] as string];
      }),
    );
    expect(scorePhq(phq(answers))).toMatchObject({ phq9: total, severity });
  });

  test("counts unanswered items as 0 once any further item was asked", () => {
    expect(
      scorePhq(phq({ phq9LittleInterest: "nearly every day", phq9Sleep: "several days" })),
    ).toMatchObject({
      phq2: 3,
      phq9: 4,
      severity: "none-minimal",
    });
  });
});

describe("summarizeAwv", () => {
  test("summarises an empty questionnaire without guessing", () => {
    expect(summarizeAwv({})).toEqual({
      phq: { phq2: 0, phq2Positive: false, phq9: null, severity: null },
      phq9Item9Positive: false,
      fallRiskPositive: false,
      tobacco: { status: "unknown", packYears30: false, lungCancerScreeningPrompt: false },
      alcohol: { frequency: null, drinksPerDay: null, binge: false },
      advanceDirectives: { livingWill: null, poa: null, dnr: null },
      functionalNeeds: [],
    });
  });

  test("raises the safety alert when item 9 is above 'not at all'", () => {
    expect(summarizeAwv(phq({ phq9SelfHarm: "several days" })).phq9Item9Positive).toBe(true);
    expect(summarizeAwv(phq({ phq9SelfHarm: "not at all" })).phq9Item9Positive).toBe(false);
  });

  test("flags fall risk on any default falls question answered yes", () => {
    expect(summarizeAwv({ fallen: { pastYear: "no", unsteady: "yes" } }).fallRiskPositive).toBe(true);
    expect(summarizeAwv({ fallen: { pastYear: "no", unsteady: "no" } }).fallRiskPositive).toBe(false);
  });

  test("flags fall risk on a STEADI score of 4 or more", () => {
    const steadi = (yes: string[]) => ({
      fallRisk: Object.fromEntries(
        ["steadiFallen", "steadiCane", "steadiUnsteady", "steadiWorried", "steadiSad"].map((item) => [
          item,
          yes.includes(item) ? "yes" : "no",
        ]),
      ),
    });
    expect(summarizeAwv(steadi(["steadiFallen", "steadiCane"])).fallRiskPositive).toBe(true);
    expect(summarizeAwv(steadi(["steadiFallen", "steadiUnsteady", "steadiWorried"])).fallRiskPositive).toBe(
      true,
    );
    expect(summarizeAwv(steadi(["steadiFallen", "steadiUnsteady"])).fallRiskPositive).toBe(false);
    expect(summarizeAwv(steadi(["steadiUnsteady", "steadiWorried", "steadiSad"])).fallRiskPositive).toBe(
      false,
    );
  });

  test.each([
    [
      "never",
      undefined,
      undefined,
      { status: "never", packYears30: false, lungCancerScreeningPrompt: false },
    ],
    [
      "quit",
      undefined,
      undefined,
      { status: "former", packYears30: false, lungCancerScreeningPrompt: false },
    ],
    [
      "quitRecent",
      "yes",
      undefined,
      { status: "former", packYears30: true, lungCancerScreeningPrompt: true },
    ],
    ["yes", "yes", undefined, { status: "current", packYears30: true, lungCancerScreeningPrompt: true }],
    ["yes", "yes", "yes", { status: "current", packYears30: true, lungCancerScreeningPrompt: false }],
    ["yes", "no", undefined, { status: "current", packYears30: false, lungCancerScreeningPrompt: false }],
  ])("reads smoking %j with pack-years %j and screening %j", (smoke, packYears, lungCancer, expected) => {
    expect(summarizeAwv({ social: { smokeYesNoQuit: smoke, packYears, lungCancer } }).tobacco).toEqual(
      expected,
    );
  });

  test("reads alcohol use", () => {
    expect(
      summarizeAwv({ social: { alcoholfrequency: "2-3week", drinksPerDay: "5", sixDrinks: "monthly" } })
        .alcohol,
    ).toEqual({
      frequency: "2-3week",
      drinksPerDay: 5,
      binge: true,
    });
    expect(summarizeAwv({ social: { alcoholfrequency: "never" } }).alcohol).toEqual({
      frequency: "never",
      drinksPerDay: null,
      binge: false,
    });
  });

  test("reads advance directives and functional needs", () => {
    const summary = summarizeAwv({
      directives: { livingWill: "yes", poa: "unknown", dnr: "no" },
      functional: { eating: "0", bathroom: "2", money: "1", driving: "3" },
    });
    expect(summary.advanceDirectives).toEqual({ livingWill: "yes", poa: "unknown", dnr: "no" });
    expect(summary.functionalNeeds).toEqual(["bathroom", "money"]);
  });
});

import { describe, expect, test } from "vitest";
import { countSyllables, fleschKincaidGrade } from "./readability.js";
import { RULES } from "./rules.js";
import { buildPlan } from "./plan.js";
import { woman } from "./test/people.js";

/** The reading level the patient texts aim at: US school grade 6. */
const TARGET_GRADE = 6;

describe("fleschKincaidGrade", () => {
  test.each([
    ["cat", 1],
    ["table", 2],
    ["vaccine", 2],
    ["mammogram", 3],
    ["tomorrow", 3],
    ["colonoscopy", 5],
    ["osteoporosis", 5],
  ])("counts %s as %i syllables", (word, syllables) => {
    expect(countSyllables(word)).toBe(syllables);
  });

  test("scores one-syllable words in a short sentence below grade 1, and long clinical prose above grade 12", () => {
    expect(fleschKincaidGrade("The cat sat on the mat.")).toBeCloseTo(0.39 * 6 + 11.8 * 1 - 15.59, 5);
    const prose =
      "Intensive multicomponent behavioural interventions demonstrably reduce cardiovascular morbidity among individuals with obesity.";
    expect(fleschKincaidGrade(prose)).toBeGreaterThan(12);
  });
});

describe("patient texts", () => {
  test.each(RULES.rows.map((r) => [r.id, r.patient.en] as const))(
    `%s reads at grade ${TARGET_GRADE} or below`,
    (_id, text) => {
      expect(fleschKincaidGrade(text)).toBeLessThanOrEqual(TARGET_GRADE);
    },
  );

  test(`the personalised advice reads at grade ${TARGET_GRADE} or below`, () => {
    const plan = buildPlan(
      woman(72, {
        smoking: { status: "current", packYears: 25 },
        measures: {
          steadi: 5,
          activityMinutesPerWeek: 60,
          auditC: 5,
          bmi: 27,
          phq9: 12,
          phq9Item9: 1,
          ad8: 3,
        },
        flags: ["hearing-concern", "home-safety-concern", "diet-concern"],
      }),
    );
    const obese = buildPlan(woman(72, { measures: { bmi: 33 } }));
    const advice = [...plan.riskFactors, ...obese.riskFactors];
    expect(new Set(advice.map((r) => r.id))).toEqual(new Set(RULES.riskFactors.map((r) => r.id)));
    for (const { id, advice: text } of advice)
      expect(fleschKincaidGrade(text.en), id).toBeLessThanOrEqual(TARGET_GRADE);
  });
});

import { describe, expect, test } from "vitest";
import { buildPlan } from "@core-care/prevention";
import { fillRequiredAnswers, teleAwvSurvey } from "@core-care/survey-engine";
import { NEGATIVE_ANSWERS } from "../../test/awv-answers.js";
import { factsFromAnswers, type PlanPatient } from "./prevention-facts.js";

const AS_OF = "2026-12-02";
const woman67 = { dob: "1959-06-10", sex: "F" as const };
const man70 = { dob: "1956-03-04", sex: "M" as const };

/** The Tele-AWV's negative answers with `social` changed. */
const teleAwv = (social: Record<string, string>, more: Record<string, unknown> = {}) => ({
  ...NEGATIVE_ANSWERS,
  social: { ...NEGATIVE_ANSWERS.social, ...social },
  ...more,
});

const unknownFacts = (answers: unknown, patient: PlanPatient = woman67) =>
  factsFromAnswers(answers, patient, AS_OF).unknown.map((u) => u.fact);

describe("prevention facts from a Tele-AWV result", () => {
  test("the patient record gives birth date and sex; a smoker of 30 pack-years or more is due for lung CT", () => {
    const { facts, from } = factsFromAnswers(
      teleAwv({ smokeYesNoQuit: "yes", packYears: "yes", lungCancer: "no" }),
      woman67,
      AS_OF,
    );
    expect(facts).toMatchObject({
      asOf: AS_OF,
      birthDate: "1959-06-10",
      sex: "female",
      smoking: { status: "current", packYears: 30 },
      history: { lungCt: "unknown", depressionScreen: AS_OF, alcoholScreen: AS_OF, fallsAssessment: AS_OF },
    });
    expect(from["smoking.packYears"]).toEqual(["social.packYears"]);
    const lung = buildPlan(facts).items.find((item) => item.topic === "lung-cancer");
    expect(lung).toMatchObject({ due: "now", status: "due", ruleId: "lung-ldct" });
  });

  test("'quit more than 15 years ago' is 15 years or more: a 70-year-old man is due for AAA, not lung CT", () => {
    const { facts } = factsFromAnswers(teleAwv({ smokeYesNoQuit: "quit" }), man70, AS_OF);
    expect(facts.smoking).toEqual({ status: "former", yearsSinceQuit: 15 });
    const plan = buildPlan(facts);
    expect(plan.items.find((i) => i.topic === "aaa")).toMatchObject({ due: "now", status: "due" });
    const lung = plan.items.find((i) => i.topic === "lung-cancer");
    expect(lung === undefined || lung.due === "not-recommended").toBe(true);
  });

  test("an answer that leaves a fact open is not guessed: under 30 pack-years asks for the number", () => {
    const answers = teleAwv({ smokeYesNoQuit: "quitRecent", packYears: "no" });
    const { facts, unknown } = factsFromAnswers(answers, woman67, AS_OF);
    expect(facts.smoking).toEqual({ status: "former" });
    expect(unknown.map((u) => u.fact)).toEqual(
      expect.arrayContaining(["smoking.packYears", "smoking.quitDate"]),
    );
    expect(unknown.find((u) => u.fact === "smoking.packYears")?.ask).toContain("under 30");
    const lung = buildPlan(facts).items.find((i) => i.topic === "lung-cancer");
    expect(lung).toMatchObject({ status: "review", due: "now" });
    expect(lung?.reason).toContain("ask or check");
  });

  test("a link without the smoking question leaves smoking unknown, and the plan asks", () => {
    const { smokeYesNoQuit: _omitted, ...social } = NEGATIVE_ANSWERS.social;
    const answers = { ...NEGATIVE_ANSWERS, social };
    const { facts } = factsFromAnswers(answers, man70, AS_OF);
    expect(facts.smoking).toBeUndefined();
    expect(unknownFacts(answers, man70)).toContain("smoking.status");
    expect(buildPlan(facts).items.find((i) => i.topic === "aaa")?.status).toBe("review");
  });

  test("AUDIT-C is scored from the three alcohol items; PHQ-2 and PHQ-9 from the depression items", () => {
    const answers = teleAwv(
      { alcoholfrequency: "2-3week", drinksPerDay: "3", sixDrinks: "monthly" },
      {
        depression: {
          phq9LittleInterest: "more than half the days",
          phq9Hopeless: "several days",
          phq9Sleep: "nearly every day",
          phq9SelfHarm: "several days",
        },
      },
    );
    const { facts } = factsFromAnswers(answers, woman67, AS_OF);
    expect(facts.measures).toMatchObject({ auditC: 3 + 1 + 2, phq2: 3, phq9: 7, phq9Item9: 1 });
    const risks = buildPlan(facts).riskFactors.map((r) => r.id);
    expect(risks).toEqual(
      expect.arrayContaining(["unhealthy-alcohol-use", "depression", "self-harm-thoughts"]),
    );
  });

  test("STEADI answers give the score; hearing and home-safety answers give their concerns", () => {
    const answers = teleAwv(
      { smokeDetectors: "no", exerciseYesNo: "yes", exerciseFrequency: "2" },
      {
        hearing: { ...NEGATIVE_ANSWERS.hearing, restaurant: "sometimes" },
        fallRisk: { steadiFallen: "yes", steadiCane: "yes", steadiSad: "no" },
      },
    );
    const { facts } = factsFromAnswers(answers, woman67, AS_OF);
    expect(facts.measures).toMatchObject({ steadi: 4, activityMinutesPerWeek: 60 });
    expect(facts.flags).toEqual(
      expect.arrayContaining(["falls-risk", "hearing-concern", "home-safety-concern"]),
    );
    const areas = buildPlan(facts).riskFactors.map((r) => r.area);
    expect(areas).toEqual(expect.arrayContaining(["falls", "hearing", "home-safety", "activity"]));
  });

  test("the Tele-AWV asks no screening history or vaccines: each is named for the visit", () => {
    const answers = fillRequiredAnswers(teleAwvSurvey, {});
    const asked = unknownFacts(answers);
    for (const fact of [
      "history.mammogram",
      "history.boneDensity",
      "history.colonoscopy",
      "vaccines.pneumococcal",
      "vaccines.zoster",
      "measures.bmi",
    ])
      expect(asked).toContain(fact);
  });
});

describe("prevention facts from the wellness exams", () => {
  test("no colon screening ever and a mammogram three years ago make both due", () => {
    const answers = {
      prevention: { colonScreening: "never", fluShot: "no" },
      womensHealth: { lastMammogram: "2023-11-20" },
    };
    const { facts } = factsFromAnswers(answers, woman67, AS_OF);
    expect(facts.history).toMatchObject({
      colonoscopy: "never",
      stoolTest: "never",
      mammogram: "2023-11-20",
    });
    expect(facts.vaccines).toEqual({ influenza: "unknown" });
    const plan = buildPlan(facts);
    for (const topic of ["colorectal-cancer", "breast-cancer", "influenza"])
      expect(plan.items.find((i) => i.topic === topic)?.due, topic).toBe("now");
  });

  test("a screening 'within the last year' of an unnamed kind is asked, not guessed", () => {
    const { facts, unknown } = factsFromAnswers({ prevention: { colonScreening: "under1" } }, woman67, AS_OF);
    expect(facts.history?.colonoscopy).toBeUndefined();
    expect(unknown.find((u) => u.fact === "history.colonoscopy")?.ask).toContain("which colorectal");
  });

  test("Welcome to Medicare conditions set the flags the rows read", () => {
    const answers = { history: { conditions0: "hypertension", conditions3: "copd" } };
    const { facts } = factsFromAnswers(answers, man70, AS_OF);
    expect(facts.flags).toEqual(expect.arrayContaining(["hypertension", "rsv-risk", "pneumococcal-risk"]));
  });
});

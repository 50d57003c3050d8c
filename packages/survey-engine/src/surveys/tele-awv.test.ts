import { describe, expect, test } from "vitest";
import { MESSAGES } from "../messages.js";
import { pruneHiddenAnswers } from "../navigation.js";
import { isQuestionVisible, setSelectedValues } from "../questions.js";
import { summarizeAwv } from "../scoring.js";
import type { Answers, EvalContext, Question } from "../types.js";
import { validateSurvey } from "../validation.js";
import {
  ALTERNATE_FALLS_TENANT_IDS,
  parseTeleAwvQuery,
  teleAwvSurvey,
  TELE_AWV_SURVEY_ID,
} from "./tele-awv.js";

const questions: Question[] = teleAwvSurvey.pages.flatMap((page) => page.questions);
const byField = (fieldName: string): Question => {
  const found = questions.find((question) => question.fieldName === fieldName);
  if (found === undefined) throw new Error(`no question ${fieldName}`);
  return found;
};
const values = (fieldName: string) => byField(fieldName).choices?.map((choice) => choice.value);
const labels = (fieldName: string) => byField(fieldName).choices?.map((choice) => choice.label);
const flags = {
  tenant: "t1",
  patientId: "p1",
  ptEmail: "pat@example.org",
  ptS: "true",
  ptPY: "true",
  pt100: "true",
};
const visible = (fieldName: string, answers: Answers, extra: Omit<EvalContext, "answers"> = {}) =>
  isQuestionVisible(byField(fieldName), { ...extra, answers });

const FUNCTIONAL = [
  "eating",
  "bedToChair",
  "bathroom",
  "phone",
  "driving",
  "meds",
  "money",
  "chores",
  "shopping",
  "stairs",
];
const HEARING = ["aid", "restaurant", "mumbling", "repeat", "phone", "ringing"];
const PHQ_VALUES = ["not at all", "several days", "more than half the days", "nearly every day"];

describe("teleAwvSurvey", () => {
  test("has a fixed id, version 1 and the 'Submit AWV' label", () => {
    expect(teleAwvSurvey.id).toBe(TELE_AWV_SURVEY_ID);
    expect(teleAwvSurvey.version).toBe(1);
    expect(teleAwvSurvey.submitLabel).toBe("Submit AWV");
  });

  test("puts its sections in the spec's order, one page each", () => {
    expect(teleAwvSurvey.sections.map((section) => section.title)).toEqual([
      "Daily function",
      "Pain",
      "Hearing",
      "Habits and social history",
      "Depression screen",
      "Fall risk",
      "Falls and balance",
      "Medical documents",
    ]);
    expect(teleAwvSurvey.pages.map((page) => page.section)).toEqual(teleAwvSurvey.sections.map((s) => s.id));
  });

  test("asks every functional activity with 0 / 1 / 2, and 3 for driving", () => {
    for (const name of FUNCTIONAL) {
      const expected = name === "driving" ? ["0", "1", "2", "3"] : ["0", "1", "2"];
      expect(values(`functional.${name}`)).toEqual(expected);
    }
    expect(labels("functional.eating")).toEqual([
      "I can do this myself",
      "I sometimes need assistance",
      "I need assistance",
    ]);
  });

  test("asks pain frequency 0-3 and 18 locations at pain.locations0..17", () => {
    expect(values("pain.hadPain")).toEqual(["0", "1", "2", "3"]);
    expect(values("pain.activities")).toEqual(["0", "1", "2", "3"]);
    expect(byField("pain.hadPain").title).toContain("3 months");
    const locations = byField("pain.locations").choices ?? [];
    expect(locations).toHaveLength(18);
    expect(locations.map((choice) => choice.fieldName)).toEqual(
      Array.from({ length: 18 }, (_, index) => `pain.locations${index}`),
    );
  });

  test("asks the hearing items yes / no / sometimes", () => {
    for (const name of HEARING) expect(values(`hearing.${name}`)).toEqual(["yes", "no", "sometimes"]);
  });

  test("asks the social history with the spec's values", () => {
    expect(values("social.alcoholfrequency")).toContain("never");
    expect(values("social.drinksPerDay")).toEqual(["1", "3", "5", "7", "10"]);
    expect(labels("social.drinksPerDay")).toEqual(["1 or 2", "3 or 4", "5 or 6", "7 to 9", "10 or more"]);
    expect(values("social.smokeYesNoQuit")).toEqual(expect.arrayContaining(["never", "quit"]));
    expect(labels("social.smokeYesNoQuit")?.join(" ")).toContain("15 years");
    expect(byField("social.packYears").title).toContain("30 pack-years");
    for (const name of ["packYears", "smoke100", "lungCancer", "smokeless", "dentist", "exerciseYesNo"]) {
      expect(values(`social.${name}`)).toEqual(["yes", "no"]);
    }
    expect(values("social.exerciseFrequency")).toEqual(["30", "60", "1", "2", "4"]);
    expect(labels("social.exerciseFrequency")).toEqual([
      "0-30 minutes per day",
      "30-60 minutes per day",
      "Less than 1 hour per week",
      "1-2 hours per week",
      "3-4 hours per week",
    ]);
    expect(values("social.maritalStatus")).toEqual([
      "single",
      "married",
      "partner",
      "divorced",
      "widowed",
      "other",
    ]);
    expect(labels("social.occupation")).toEqual(["Retired", "Unemployed", "Currently employed", "Disabled"]);
    for (const name of ["oralHealth", "generalHealth", "sexualHealth", "stress", "seatbelt", "energy"]) {
      expect(byField(`social.${name}`).choices?.length).toBeGreaterThan(1);
    }
  });

  test("offers 8 diets and 8 household options at their own fields, with their none options", () => {
    const diets = byField("social.diets");
    expect(diets.choices?.map((choice) => choice.fieldName)).toEqual(
      Array.from({ length: 8 }, (_, index) => `social.diets${index}`),
    );
    expect(labels("social.diets")).toContain("I don't follow a diet");
    expect(diets.choices?.find((choice) => choice.value === diets.noneValue)?.label).toBe(
      "I don't follow a diet",
    );
    const household = byField("social.householdMembers");
    expect(household.choices?.map((choice) => choice.fieldName)).toEqual(
      Array.from({ length: 8 }, (_, index) => `social.householdMembers${index}`),
    );
    expect(household.choices?.find((choice) => choice.value === household.noneValue)?.label).toBe(
      "I live alone",
    );
  });

  test("asks the PHQ-9 items with the spec's four answers and a difficulty level", () => {
    const items = questions.filter((question) => question.fieldName.startsWith("depression.phq9"));
    expect(items).toHaveLength(9);
    for (const item of items) expect(item.choices?.map((choice) => choice.value)).toEqual(PHQ_VALUES);
    expect(byField("depression.difficulty").choices?.length).toBe(4);
  });

  test("asks the falls items and the STEADI set yes / no, and the advance directives with 'I Don't Know'", () => {
    for (const name of [
      "pastYear",
      "loseBalanceWhileStanding",
      "dizzy",
      "useCane",
      "unsteady",
      "recentVisionLoss",
      "stroke",
    ]) {
      expect(values(`fallen.${name}`)).toEqual(["yes", "no"]);
    }
    const steadi = questions.filter((question) => question.fieldName.startsWith("fallRisk.steadi"));
    expect(steadi).toHaveLength(12);
    for (const item of steadi) expect(item.choices?.map((choice) => choice.value)).toEqual(["yes", "no"]);
    for (const name of ["livingWill", "poa", "dnr"]) {
      expect(values(`directives.${name}`)).toEqual(["yes", "no", "unknown"]);
      expect(labels(`directives.${name}`)).toContain("I Don't Know");
    }
  });

  test("hides the spec's follow-ups by default", () => {
    const hidden = questions.filter((question) => !isQuestionVisible(question, { answers: flags }));
    const names = hidden.map((question) => question.fieldName);
    expect(names).toEqual([
      "pain.locations",
      "social.drinksPerDay",
      "social.sixDrinks",
      "social.packYears",
      "social.smoke100",
      "social.lungCancer",
      "social.exerciseFrequency",
      "depression.phq9Sleep",
      "depression.phq9Tired",
      "depression.phq9Appetite",
      "depression.phq9Failure",
      "depression.phq9Concentration",
      "depression.phq9Movement",
      "depression.phq9SelfHarm",
      "depression.difficulty",
      "fallRisk.intro",
      ...questions
        .filter((question) => question.fieldName.startsWith("fallRisk.steadi"))
        .map((q) => q.fieldName),
    ]);
  });

  test("requires every radio question except the follow-ups, the energy item and exercise frequency", () => {
    const optional = questions
      .filter((question) => (question.type === "radio" || question.type === "yesno") && !question.required)
      .map((question) => question.fieldName);
    expect(optional).toEqual([
      "social.drinksPerDay",
      "social.sixDrinks",
      "social.smoke100",
      "social.lungCancer",
      "social.exerciseFrequency",
      "social.energy",
      "depression.phq9Sleep",
      "depression.phq9Tired",
      "depression.phq9Appetite",
      "depression.phq9Failure",
      "depression.phq9Concentration",
      "depression.phq9Movement",
      "depression.phq9SelfHarm",
      "depression.difficulty",
    ]);
    expect(byField("social.packYears").required).toBe(true);
  });
});

describe("teleAwvSurvey conditional sections (SPEC 4)", () => {
  test.each([
    ["0", false],
    ["1", true],
    ["2", true],
    ["3", true],
  ])("shows pain locations when pain.hadPain is %j: %s", (hadPain, shown) => {
    expect(visible("pain.locations", { pain: { hadPain } })).toBe(shown);
  });

  test.each([
    ["yes", "true", true],
    ["quitRecent", "true", true],
    ["never", "true", false],
    ["quit", "true", false],
    ["yes", "false", false],
    [undefined, "true", false],
  ])("shows pack-years for smoking status %j and flag %j: %s", (status, ptPY, shown) => {
    expect(visible("social.packYears", { ...flags, ptPY, social: { smokeYesNoQuit: status } })).toBe(shown);
  });

  test.each([
    [{ smokeYesNoQuit: "yes", packYears: "no" }, {}, true],
    [{ smokeYesNoQuit: "quit" }, {}, true],
    [{ smokeYesNoQuit: "yes", packYears: "yes" }, {}, false],
    [{ smokeYesNoQuit: "never" }, {}, false],
    [{ smokeYesNoQuit: "yes" }, { ptS: "false" }, false],
    [{ smokeYesNoQuit: "yes" }, { pt100: "false" }, false],
    [{}, {}, false],
  ])("shows 100-cigarettes for %j with flags %j: %s", (social, flagChanges, shown) => {
    expect(visible("social.smoke100", { ...flags, ...flagChanges, social })).toBe(shown);
  });

  test.each([
    [{ smokeYesNoQuit: "yes", packYears: "yes" }, true],
    [{ smokeYesNoQuit: "quitRecent", packYears: "yes" }, true],
    [{ smokeYesNoQuit: "yes", packYears: "no" }, false],
    [{ smokeYesNoQuit: "quit", packYears: "yes" }, false],
    [{ smokeYesNoQuit: "never", packYears: "yes" }, false],
  ])("shows lung cancer screening for %j: %s", (social, shown) => {
    expect(visible("social.lungCancer", { ...flags, social })).toBe(shown);
  });

  test.each([
    ["not at all", "not at all", false],
    ["several days", "not at all", true],
    ["not at all", "more than half the days", true],
    ["nearly every day", undefined, true],
    [undefined, undefined, false],
  ])("shows the further PHQ-9 items for %j and %j: %s", (littleInterest, hopeless, shown) => {
    const answers = { depression: { phq9LittleInterest: littleInterest, phq9Hopeless: hopeless } };
    expect(visible("depression.phq9SelfHarm", answers)).toBe(shown);
    expect(visible("depression.difficulty", answers)).toBe(shown);
  });

  test.each([
    ["never", false],
    ["monthly", true],
    ["4week", true],
    [undefined, false],
  ])("shows the alcohol details for frequency %j: %s", (alcoholfrequency, shown) => {
    expect(visible("social.drinksPerDay", { social: { alcoholfrequency } })).toBe(shown);
    expect(visible("social.sixDrinks", { social: { alcoholfrequency } })).toBe(shown);
  });

  test.each([
    ["yes", true],
    ["no", false],
  ])("shows exercise frequency when exercise is %j: %s", (exerciseYesNo, shown) => {
    expect(visible("social.exerciseFrequency", { social: { exerciseYesNo } })).toBe(shown);
  });

  test("names the spec's three tenants with the alternate falls questions", () => {
    expect(ALTERNATE_FALLS_TENANT_IDS).toEqual(["sc-duncan-corecarefp", "tx-plano-btpa", "localhost"]);
  });

  test("swaps the falls questions for the STEADI set when the tenant asks for it", () => {
    const alternate = { tenant: { id: "tx-plano-btpa", settings: { alternateFalls: true } } };
    const standard = { tenant: { id: "t1", settings: { alternateFalls: false } } };
    expect(visible("fallen.pastYear", {}, standard)).toBe(true);
    expect(visible("fallRisk.steadiFallen", {}, standard)).toBe(false);
    expect(visible("fallen.pastYear", {}, alternate)).toBe(false);
    expect(visible("fallRisk.steadiFallen", {}, alternate)).toBe(true);
    expect(visible("fallen.recentVisionLoss", {}, alternate)).toBe(true);
    expect(visible("fallen.stroke", {}, alternate)).toBe(true);
  });
});

function completeAnswers(): Answers {
  let answers: Answers = { ...flags };
  for (const question of questions) {
    if (question.type === "html" || !isQuestionVisible(question, { answers })) continue;
    const first = question.choices?.[0]?.value as string;
    answers = setSelectedValues(question, answers, [first]);
  }
  return answers;
}

describe("teleAwvSurvey validation (SPEC 5)", () => {
  test("accepts a complete questionnaire", () => {
    expect(validateSurvey(teleAwvSurvey, completeAnswers())).toEqual([]);
  });

  test("requires each visible radio question with 'This field is required.'", () => {
    const issues = validateSurvey(teleAwvSurvey, { ...flags });
    const required = issues.filter((issue) => issue.code === "required");
    expect(required.every((issue) => issue.message === "This field is required.")).toBe(true);
    expect(required.map((issue) => issue.field)).toContain("functional.eating");
    expect(required.map((issue) => issue.field)).toContain("directives.dnr");
    expect(required.map((issue) => issue.field)).not.toContain("social.energy");
    expect(required.map((issue) => issue.field)).not.toContain("social.exerciseFrequency");
  });

  test("words the diet, household and pain-location messages exactly", () => {
    const answers = completeAnswers();
    const broken = {
      ...answers,
      pain: { hadPain: "2", activities: "1" },
      social: Object.fromEntries(
        Object.entries(answers.social as Record<string, unknown>).filter(
          ([key]) => !key.startsWith("diets") && !key.startsWith("householdMembers"),
        ),
      ),
    };
    expect(validateSurvey(teleAwvSurvey, broken)).toEqual([
      { code: "groupRequired", field: "pain.locations", message: MESSAGES.painLocationRequired },
      { code: "groupRequired", field: "social.diets", message: MESSAGES.dietRequired },
      { code: "groupRequired", field: "social.householdMembers", message: MESSAGES.householdRequired },
    ]);
  });

  test("requires pack-years once it shows", () => {
    const complete = completeAnswers();
    const { packYears: _packYears, ...social } = complete.social as Record<string, unknown>;
    expect(social.smokeYesNoQuit).toBe("yes");
    expect(validateSurvey(teleAwvSurvey, { ...complete, social })).toEqual([
      { code: "required", field: "social.packYears", message: MESSAGES.required, messageId: "required" },
    ]);
    expect(validateSurvey(teleAwvSurvey, { ...complete, social, ptPY: "false" })).toEqual([]);
  });

  test("drops answers of sections that closed again and summarises the rest", () => {
    const answers = {
      ...completeAnswers(),
      depression: {
        phq9LittleInterest: "not at all",
        phq9Hopeless: "not at all",
        phq9SelfHarm: "nearly every day",
      },
    };
    const pruned = pruneHiddenAnswers(teleAwvSurvey, { answers });
    expect(pruned.depression).toEqual({ phq9LittleInterest: "not at all", phq9Hopeless: "not at all" });
    expect(pruned.patientId).toBe("p1");
    expect(summarizeAwv(pruned).phq9Item9Positive).toBe(false);
    expect(summarizeAwv(answers).phq9Item9Positive).toBe(true);
  });
});

describe("parseTeleAwvQuery", () => {
  test("fills the six hidden fields in order from exactly six pairs", () => {
    expect(
      parseTeleAwvQuery("?tenant=sc-duncan&patientId=p%201&ptEmail=a%40b.org&ptS=true&ptPY=false&pt100=1"),
    ).toEqual({
      tenant: "sc-duncan",
      patientId: "p 1",
      ptEmail: "a@b.org",
      ptS: "true",
      ptPY: "false",
      pt100: "true",
    });
  });

  test.each([
    "",
    "?tenant=a&patientId=b&ptEmail=c&ptS=true&ptPY=true",
    "tenant=a&patientId=b&ptEmail=c&ptS=true&ptPY=true&pt100=true&extra=1",
  ])("refuses %j", (search) => {
    expect(parseTeleAwvQuery(search)).toBeNull();
  });
});

describe("the link's smoking flags (SPEC 2, 4)", () => {
  test("ptS=false hides the smoking question and every follow-up, and none is required", () => {
    const answers = { ...flags, ptS: "false" };
    expect(visible("social.smokeYesNoQuit", answers)).toBe(false);
    expect(visible("social.packYears", answers)).toBe(false);
    expect(visible("social.smoke100", answers)).toBe(false);
    expect(visible("social.lungCancer", answers)).toBe(false);
    const issues = validateSurvey(teleAwvSurvey, answers).map((issue) => issue.field);
    expect(issues).not.toContain("social.smokeYesNoQuit");
    expect(issues).not.toContain("social.packYears");
    expect(validateSurvey(teleAwvSurvey, { ...flags, ptS: "true" }).map((issue) => issue.field)).toContain(
      "social.smokeYesNoQuit",
    );
  });
});

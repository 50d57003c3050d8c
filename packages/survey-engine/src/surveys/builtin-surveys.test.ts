import { describe, expect, test } from "vitest";
import { normalizeAction } from "../conditions.js";
import { nextPageIndex, previousPageIndex } from "../navigation.js";
import { isObjectId } from "../object-id.js";
import { answerPaths, isQuestionVisible, questionPath } from "../questions.js";
import { sortSurveys } from "../sort-surveys.js";
import type { Condition, Question, Survey } from "../types.js";
import { validatePage } from "../validation.js";
import { coreCareWellnessExam } from "./core-care-wellness-exam.js";
import { BUILTIN_SURVEYS } from "./index.js";
import { TELE_AWV_HIDDEN_FIELDS } from "./tele-awv.js";
import { welcomeToMedicareExam } from "./welcome-to-medicare-exam.js";

function allQuestions(questions: readonly Question[]): Question[] {
  return questions.flatMap((question) => [question, ...allQuestions(question.fields ?? [])]);
}

function allConditions(survey: Survey): Condition[] {
  return survey.pages.flatMap((page) => [
    ...page.conditions,
    ...allQuestions(page.questions).flatMap((question) => question.visibleWhen ?? []),
  ]);
}

function answerFields(survey: Survey): Set<string> {
  const fields = new Set<string>();
  const visit = (questions: readonly Question[], prefix: string) => {
    for (const question of questions) {
      fields.add(questionPath(question, prefix));
      for (const path of answerPaths(question, prefix)) fields.add(path);
      if (question.type === "group") visit(question.fields ?? [], questionPath(question, prefix));
    }
  };
  for (const page of survey.pages) visit(page.questions, "");
  return fields;
}

const GLOBALS = new Set(["sex", "age", "tenant.id", "tenant.location.id", "tenant.settings.alternateFalls"]);

describe("BUILTIN_SURVEYS", () => {
  test.each(BUILTIN_SURVEYS.map((survey) => [survey.title, survey] as const))(
    "%s has fixed 24-hex ids, unique field names and version 1",
    (_title, survey) => {
      expect(isObjectId(survey.id)).toBe(true);
      expect(survey.version).toBe(1);
      const ids = [
        ...survey.pages.map((page) => page.id),
        ...survey.pages.flatMap((page) => allQuestions(page.questions).map((question) => question.id)),
      ];
      for (const id of ids) expect(isObjectId(id)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      const paths = survey.pages.flatMap((page) =>
        page.questions.flatMap((question) => answerPaths(question)),
      );
      expect(new Set(paths).size).toBe(paths.length);
      const sectionIds = survey.sections.map((section) => section.id);
      for (const page of survey.pages) expect(sectionIds).toContain(page.section);
    },
  );

  test.each(BUILTIN_SURVEYS.map((survey) => [survey.title, survey] as const))(
    "%s only uses canonical actions on fields that exist",
    (_title, survey) => {
      const fields = answerFields(survey);
      for (const condition of allConditions(survey)) {
        expect(normalizeAction(condition.action)).toBe(condition.action);
        const known =
          fields.has(condition.fieldName) ||
          GLOBALS.has(condition.fieldName) ||
          (TELE_AWV_HIDDEN_FIELDS as readonly string[]).includes(condition.fieldName);
        expect(known, condition.fieldName).toBe(true);
      }
    },
  );

  test("has distinct survey ids", () => {
    expect(new Set(BUILTIN_SURVEYS.map((survey) => survey.id)).size).toBe(BUILTIN_SURVEYS.length);
  });

  test("sorts the wellness exam first and Welcome to Medicare next", () => {
    expect(sortSurveys(BUILTIN_SURVEYS).map((survey) => survey.title)).toEqual([
      "Core Care Wellness Exam",
      "Welcome to Medicare Exam",
      "Annual Wellness Visit",
    ]);
  });

  test.each([coreCareWellnessExam, welcomeToMedicareExam].map((survey) => [survey.title, survey] as const))(
    "%s has 3 to 5 pages, a page condition, a question condition and several question types",
    (_title, survey) => {
      expect(survey.pages.length).toBeGreaterThanOrEqual(3);
      expect(survey.pages.length).toBeLessThanOrEqual(5);
      expect(survey.pages.some((page) => page.conditions.length > 0)).toBe(true);
      const questions = survey.pages.flatMap((page) => allQuestions(page.questions));
      expect(questions.some((question) => (question.visibleWhen ?? []).length > 0)).toBe(true);
      expect(new Set(questions.map((question) => question.type)).size).toBeGreaterThanOrEqual(5);
    },
  );
});

describe("coreCareWellnessExam", () => {
  test("shows the women's health page only for female patients", () => {
    const womensHealth = coreCareWellnessExam.pages.findIndex((page) => page.title === "Women's health");
    expect(nextPageIndex(coreCareWellnessExam, womensHealth - 1, { answers: {}, sex: "F" })).toBe(
      womensHealth,
    );
    expect(nextPageIndex(coreCareWellnessExam, womensHealth - 1, { answers: {}, sex: "M" })).toBe(
      womensHealth + 1,
    );
    expect(previousPageIndex(coreCareWellnessExam, womensHealth + 1, { answers: {}, sex: "M" })).toBe(
      womensHealth - 1,
    );
  });

  test("asks for the medicine list only when medicines are taken", () => {
    const page = coreCareWellnessExam.pages[1];
    if (page === undefined) throw new Error("missing page");
    const answered = { medicines: { takesAny: "yes", allergies: ["none"] } };
    expect(validatePage(page, answered).map((issue) => issue.field)).toEqual(["medicines.list"]);
    expect(validatePage(page, { medicines: { takesAny: "no", allergies: ["none"] } })).toEqual([]);
    expect(
      validatePage(page, { medicines: { takesAny: "no", allergies: ["food"] } }).map((i) => i.field),
    ).toEqual(["medicines.otherAllergy"]);
  });

  test("asks about colon screening from age 45", () => {
    const question = coreCareWellnessExam.pages[2]?.questions.find(
      (q) => q.fieldName === "prevention.colonScreening",
    );
    if (question === undefined) throw new Error("missing question");
    expect(isQuestionVisible(question, { answers: {}, age: 45 })).toBe(true);
    expect(isQuestionVisible(question, { answers: {}, age: 30 })).toBe(false);
  });
});

describe("welcomeToMedicareExam", () => {
  test("skips the hospital stays page unless the patient stayed in hospital", () => {
    expect(nextPageIndex(welcomeToMedicareExam, 0, { answers: { history: { hospitalized: "no" } } })).toBe(2);
    expect(nextPageIndex(welcomeToMedicareExam, 0, { answers: { history: { hospitalized: "yes" } } })).toBe(
      1,
    );
    expect(
      previousPageIndex(welcomeToMedicareExam, 2, { answers: { history: { hospitalized: "no" } } }),
    ).toBe(0);
  });

  test("validates the family history group and its cancer follow-up", () => {
    const page = welcomeToMedicareExam.pages[2];
    if (page === undefined) throw new Error("missing page");
    const family = { heartDisease: "no", diabetes: "no", cancer: "yes" };
    expect(validatePage(page, { family }).map((issue) => issue.field)).toEqual(["family.cancerType"]);
    expect(validatePage(page, { family: { ...family, cancerType: "Colon" } })).toEqual([]);
    expect(validatePage(page, { family: { ...family, cancer: "no" } })).toEqual([]);
  });
});

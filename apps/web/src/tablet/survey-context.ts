import type { Condition, Question, Survey } from "@core-care/survey-engine";

function conditionNeedsGlobals(condition: Condition): boolean {
  const name = condition.fieldName;
  return name === "sex" || name === "age" || name.startsWith("tenant.");
}

function questionNeedsGlobals(question: Question): boolean {
  return (
    (question.visibleWhen ?? []).some(conditionNeedsGlobals) ||
    (question.fields ?? []).some(questionNeedsGlobals)
  );
}

/** True when a page or question condition reads a global (sex, age, tenant.*), so the runner must load them. */
export function surveyNeedsGlobals(survey: Survey): boolean {
  return survey.pages.some(
    (page) => page.conditions.some(conditionNeedsGlobals) || page.questions.some(questionNeedsGlobals),
  );
}

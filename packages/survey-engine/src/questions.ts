import { getAnswer, setAnswer } from "./answers.js";
import { evaluateConditions, hasResponse } from "./conditions.js";
import { describeQuestion } from "./question-types.js";
import type { Answers, EvalContext, Page, Question } from "./types.js";

/** The full dotted path of a question's answer under the given group prefix. */
export function questionPath(question: Question, prefix = ""): string {
  return prefix === "" ? question.fieldName : `${prefix}.${question.fieldName}`;
}

function choicePath(fieldName: string, prefix: string): string {
  return prefix === "" ? fieldName : `${prefix}.${fieldName}`;
}

/** True for a checkbox group whose every choice stores its value in a field of its own. */
export function hasChoiceFields(question: Question): boolean {
  const choices = question.choices ?? [];
  return choices.length > 0 && choices.every((choice) => typeof choice.fieldName === "string");
}

/**
 * The values a checkbox, radio or select question currently holds, as a list. A checkbox group whose
 * choices carry their own `fieldName` reads each of those fields; any other question reads its `fieldName`
 * (a list, or one value).
 */
export function selectedValues(question: Question, answers: Answers, prefix = ""): string[] {
  if (describeQuestion(question).answer === "choices" && hasChoiceFields(question)) {
    const selected: string[] = [];
    for (const choice of question.choices ?? []) {
      if (hasResponse(getAnswer(answers, choicePath(choice.fieldName as string, prefix)))) {
        selected.push(choice.value);
      }
    }
    return selected;
  }
  const value = getAnswer(answers, questionPath(question, prefix));
  if (Array.isArray(value)) return value.filter(hasResponse).map(String);
  return hasResponse(value) ? [String(value)] : [];
}

/**
 * Returns answers holding exactly `values` as the question's selection: per-choice fields get the choice's
 * value or are removed; other questions store the list (checkbox) or the first value (radio, select).
 */
export function setSelectedValues(
  question: Question,
  answers: Answers,
  values: readonly string[],
  prefix = "",
): Answers {
  if (describeQuestion(question).answer === "choices" && hasChoiceFields(question)) {
    let next = answers;
    for (const choice of question.choices ?? []) {
      const chosen = values.includes(choice.value);
      next = setAnswer(
        next,
        choicePath(choice.fieldName as string, prefix),
        chosen ? choice.value : undefined,
      );
    }
    return next;
  }
  const path = questionPath(question, prefix);
  if (describeQuestion(question).answer === "choices")
    return setAnswer(answers, path, values.length > 0 ? [...values] : undefined);
  return setAnswer(answers, path, values[0]);
}

/**
 * Every answer path a question writes: its own, its per-choice fields, and its nested fields'. These are
 * its type descriptor's CSV columns.
 */
export function answerPaths(question: Question, prefix = ""): string[] {
  return describeQuestion(question).csvColumns(question, prefix);
}

/** True when the question's `visibleWhen` conditions hold (or it has none). */
export function isQuestionVisible(question: Question, context: EvalContext): boolean {
  return evaluateConditions(question.visibleWhen, context);
}

function filterVisible(questions: readonly Question[], context: EvalContext): Question[] {
  const visible: Question[] = [];
  for (const question of questions) {
    if (!isQuestionVisible(question, context)) continue;
    if (describeQuestion(question).answer === "fields" && question.fields !== undefined) {
      const fields = filterVisible(question.fields, context);
      visible.push(fields.length === question.fields.length ? question : { ...question, fields });
    } else {
      visible.push(question);
    }
  }
  return visible;
}

/** The page's questions whose `visibleWhen` conditions hold; groups keep only their visible fields. */
export function visibleQuestions(page: Page, context: EvalContext): Question[] {
  return filterVisible(page.questions, context);
}

import { setAnswer } from "./answers.js";
import { evaluateConditions } from "./conditions.js";
import { describeQuestion } from "./question-types.js";
import { answerPaths, isQuestionVisible, questionPath } from "./questions.js";
import type { Answers, EvalContext, Page, Question, Survey } from "./types.js";

/** True when every one of the page's conditions holds (joined as `compileConditions` describes). */
export function shouldDisplayPage(page: Page, context: EvalContext): boolean {
  return evaluateConditions(page.conditions, context);
}

/** The 0-based index of the first page after `index` that shows, or -1 when none does (time to submit). */
export function nextPageIndex(survey: Survey, index: number, context: EvalContext): number {
  for (let next = Math.max(index + 1, 0); next < survey.pages.length; next++) {
    if (shouldDisplayPage(survey.pages[next] as Page, context)) return next;
  }
  return -1;
}

/** The nearest page before `index` that shows, or `index` itself when there is none. */
export function previousPageIndex(survey: Survey, index: number, context: EvalContext): number {
  for (let previous = Math.min(index, survey.pages.length) - 1; previous >= 0; previous--) {
    if (shouldDisplayPage(survey.pages[previous] as Page, context)) return previous;
  }
  return index;
}

function hiddenPaths(
  questions: readonly Question[],
  context: EvalContext,
  prefix: string,
  out: string[],
): void {
  for (const question of questions) {
    if (!isQuestionVisible(question, context)) {
      out.push(...answerPaths(question, prefix));
    } else if (describeQuestion(question).answer === "fields") {
      hiddenPaths(question.fields ?? [], context, questionPath(question, prefix), out);
    }
  }
}

/**
 * The answers without those of hidden questions and of pages that do not show, so hidden inputs are never
 * submitted. Answers that belong to no question (hidden fields such as `patientId`) are kept. Repeats
 * until stable, because removing an answer can hide further questions.
 */
export function pruneHiddenAnswers(survey: Survey, context: EvalContext): Answers {
  let answers = context.answers;
  for (let round = 0; round <= survey.pages.length + 8; round++) {
    const current: EvalContext = { ...context, answers };
    const paths: string[] = [];
    for (const page of survey.pages) {
      if (shouldDisplayPage(page, current)) hiddenPaths(page.questions, current, "", paths);
      else for (const question of page.questions) paths.push(...answerPaths(question));
    }
    let next = answers;
    for (const path of paths) next = setAnswer(next, path, undefined);
    if (next === answers) return next;
    answers = next;
  }
  return answers;
}

import { nestDottedKeys } from "./answer-list.js";
import { getAnswer } from "./answers.js";
import { hasResponse } from "./conditions.js";
import { describeQuestion } from "./question-types.js";
import { hasChoiceFields, questionPath } from "./questions.js";
import type { Answers, EvalContext, Question, Survey, ValidationIssue } from "./types.js";
import { issue, validateSurvey, valueIssues } from "./validation.js";

/** What `checkAnswers` checks beyond the values themselves. */
export interface CheckAnswersOptions {
  /** A submission: every required question that shows must be answered. Drafts may be partial. */
  submit?: boolean;
  /** The globals conditions read (`tenant`, `sex`, `age`), for which questions show on submit. */
  context?: Omit<EvalContext, "answers">;
}

const invalidChoice = (field: string) => issue("invalidChoice", field, "invalidChoice");

function choiceIssues(question: Question, answers: Answers, prefix: string): ValidationIssue[] {
  const choices = question.choices ?? [];
  if (describeQuestion(question).answer === "choices" && hasChoiceFields(question)) {
    // Each choice stores its own value (or `true`) in its own field; anything else there is not a choice.
    return choices.flatMap((choice) => {
      const path = questionPath({ ...question, fieldName: choice.fieldName as string }, prefix);
      const value = getAnswer(answers, path);
      return !hasResponse(value) || value === true || String(value) === choice.value
        ? []
        : [invalidChoice(path)];
    });
  }
  const field = questionPath(question, prefix);
  const value = getAnswer(answers, field);
  if (!hasResponse(value)) return [];
  const allowed = new Set(choices.map((choice) => choice.value));
  const values = Array.isArray(value) ? value : [value];
  const single = describeQuestion(question).answer !== "choices";
  if (single && Array.isArray(value) && value.filter(hasResponse).length > 1) return [invalidChoice(field)];
  const isAllowed = (v: unknown) =>
    !hasResponse(v) || ((typeof v === "string" || typeof v === "number") && allowed.has(String(v)));
  return values.every(isAllowed) ? [] : [invalidChoice(field)];
}

function collect(questions: readonly Question[], answers: Answers, prefix: string, into: ValidationIssue[]) {
  for (const question of questions) {
    const field = questionPath(question, prefix);
    const type = describeQuestion(question);
    if (type.answer === "fields") {
      collect(question.fields ?? [], answers, field, into);
    } else if (type.answer === "choice" || type.answer === "choices") {
      if ((question.choices?.length ?? 0) > 0) into.push(...choiceIssues(question, answers, prefix));
    } else if (type.answer === "value") {
      const value = getAnswer(answers, field);
      if (!type.isEmpty(value)) into.push(...valueIssues({ ...question, required: false }, value, field));
    }
  }
}

/**
 * The problems of a result's answers against its survey, for a server to refuse what no runner would
 * have sent: a choice the question does not offer, a number out of its range or not a number, a
 * malformed date, e-mail or phone, on every answered question whether it shows or not. With `submit`,
 * also every required question that shows and has no answer (and "none of these" chosen with other
 * choices), as `validateSurvey` finds them. Answers no question names are not checked. Empty when the
 * answers may be stored.
 */
export function checkAnswers(
  survey: Pick<Survey, "pages">,
  stored: Answers,
  options: CheckAnswersOptions = {},
): ValidationIssue[] {
  const answers = nestDottedKeys(stored);
  const issues: ValidationIssue[] = [];
  for (const page of survey.pages) collect(page.questions, answers, "", issues);
  if (options.submit === true) {
    const seen = new Set(issues.map((i) => i.field));
    for (const found of validateSurvey(survey, answers, options.context)) {
      if (!seen.has(found.field)) {
        seen.add(found.field);
        issues.push(found);
      }
    }
  }
  return issues;
}

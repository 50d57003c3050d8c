import { getAnswer } from "./answers.js";
import { evaluateConditions } from "./conditions.js";
import { issue } from "./messages.js";
import { describeQuestion } from "./question-types.js";
import { hasChoiceFields, isQuestionVisible, questionPath, selectedValues } from "./questions.js";
import type {
  Answers,
  EvalContext,
  Page,
  Question,
  Survey,
  ValidationCode,
  ValidationIssue,
} from "./types.js";

export { issue };

/** A required-answer issue: the question's own message when it has one, else the engine's. */
function requiredIssue(code: ValidationCode, question: Question, field: string): ValidationIssue {
  return question.requiredMessage === undefined
    ? issue(code, field, "required")
    : { code, field, message: question.requiredMessage };
}

function checkboxIssues(
  question: Question,
  answers: Answers,
  prefix: string,
  field: string,
): ValidationIssue[] {
  const selected = selectedValues(question, answers, prefix);
  const isGroupRule = hasChoiceFields(question) || question.noneValue !== undefined;
  if (selected.length === 0) {
    if (!question.required) return [];
    return [requiredIssue(isGroupRule ? "groupRequired" : "required", question, field)];
  }
  const none = question.noneValue;
  if (none !== undefined && selected.includes(none) && selected.length > 1) {
    if (question.requiredMessage !== undefined)
      return [{ code: "noneExclusive", field, message: question.requiredMessage }];
    const label = question.choices?.find((choice) => choice.value === none)?.label ?? none;
    return [issue("noneExclusive", field, "noneExclusive", { none: label })];
  }
  return [];
}

/** The problems of one answered value of a question (its type's format and range), or of a missing required one. */
export function valueIssues(question: Question, value: unknown, field: string): ValidationIssue[] {
  const type = describeQuestion(question);
  if (type.isEmpty(value)) return question.required ? [requiredIssue("required", question, field)] : [];
  return type.check(question, value, field);
}

function collect(
  questions: readonly Question[],
  answers: Answers,
  context: EvalContext,
  prefix: string,
  issues: ValidationIssue[],
): void {
  for (const question of questions) {
    if (!isQuestionVisible(question, context)) continue;
    const field = questionPath(question, prefix);
    const { answer } = describeQuestion(question);
    if (answer === "fields") collect(question.fields ?? [], answers, context, field, issues);
    else if (answer === "choices") issues.push(...checkboxIssues(question, answers, prefix, field));
    else if (answer !== "none") issues.push(...valueIssues(question, getAnswer(answers, field), field));
  }
}

/**
 * The problems that stop the runner from leaving a page, in page order (empty when valid). Hidden
 * questions are skipped, so they are never required. A required question with no response (text blank
 * after trim, a radio, select or checkbox group with nothing chosen) gives `required`, or `groupRequired`
 * for checkbox groups with per-choice fields or a "none of these" choice; choosing "none of these" with
 * another choice gives `noneExclusive`; answered number, scale, email and date questions are checked too.
 * Conditions read `context` (default: just these answers) with `answers` in place of its answers.
 */
export function validatePage(
  page: Page,
  answers: Answers,
  context?: Omit<EvalContext, "answers">,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const evalContext: EvalContext = { ...context, answers };
  collect(page.questions, answers, evalContext, "", issues);
  return issues;
}

/**
 * The problems of every page that shows, in page order: for forms that put the whole survey on one screen,
 * such as the Tele-AWV questionnaire.
 */
export function validateSurvey(
  survey: Pick<Survey, "pages">,
  answers: Answers,
  context?: Omit<EvalContext, "answers">,
): ValidationIssue[] {
  const evalContext: EvalContext = { ...context, answers };
  return survey.pages
    .filter((page) => evaluateConditions(page.conditions, evalContext))
    .flatMap((page) => validatePage(page, answers, context));
}

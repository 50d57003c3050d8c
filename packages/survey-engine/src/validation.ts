import { getAnswer } from "./answers.js";
import { evaluateConditions, hasResponse } from "./conditions.js";
import { formatMessage, MESSAGES } from "./messages.js";
import { hasChoiceFields, isQuestionVisible, questionPath, selectedValues } from "./questions.js";
import type { Answers, EvalContext, Page, Question, Survey, ValidationIssue } from "./types.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isValidDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function toNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "") return Number(value);
  return Number.NaN;
}

function rangeIssue(question: Question, field: string, value: number): ValidationIssue | undefined {
  const { min, max } = question;
  const low = min !== undefined && value < min;
  const high = max !== undefined && value > max;
  if (!low && !high) return undefined;
  const message =
    min !== undefined && max !== undefined
      ? formatMessage(MESSAGES.outOfRange, { min, max })
      : min !== undefined
        ? formatMessage(MESSAGES.belowMin, { min })
        : formatMessage(MESSAGES.aboveMax, { max: max as number });
  return { code: "outOfRange", field, message };
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
    const message = question.requiredMessage ?? MESSAGES.required;
    return [{ code: isGroupRule ? "groupRequired" : "required", field, message }];
  }
  const none = question.noneValue;
  if (none !== undefined && selected.includes(none) && selected.length > 1) {
    const label = question.choices?.find((choice) => choice.value === none)?.label ?? none;
    const message = question.requiredMessage ?? formatMessage(MESSAGES.noneExclusive, { none: label });
    return [{ code: "noneExclusive", field, message }];
  }
  return [];
}

function valueIssues(question: Question, value: unknown, field: string): ValidationIssue[] {
  if (!hasResponse(value)) {
    const message = question.requiredMessage ?? MESSAGES.required;
    return question.required ? [{ code: "required", field, message }] : [];
  }
  switch (question.type) {
    case "number":
    case "scale": {
      const number = toNumber(value);
      if (!Number.isFinite(number))
        return [{ code: "invalidNumber", field, message: MESSAGES.invalidNumber }];
      const issue = rangeIssue(question, field, number);
      return issue === undefined ? [] : [issue];
    }
    case "email":
      return typeof value === "string" && EMAIL.test(value.trim())
        ? []
        : [{ code: "invalidEmail", field, message: MESSAGES.invalidEmail }];
    case "date":
      return typeof value === "string" && isValidDate(value.trim())
        ? []
        : [{ code: "invalidDate", field, message: MESSAGES.invalidDate }];
    case "text":
    case "textarea":
    case "phone":
    case "select":
    case "radio":
    case "yesno":
    case "checkbox":
    case "group":
    case "html":
      return [];
  }
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
    switch (question.type) {
      case "html":
        break;
      case "group":
        collect(question.fields ?? [], answers, context, field, issues);
        break;
      case "checkbox":
        issues.push(...checkboxIssues(question, answers, prefix, field));
        break;
      case "text":
      case "textarea":
      case "number":
      case "date":
      case "phone":
      case "email":
      case "select":
      case "radio":
      case "yesno":
      case "scale":
        issues.push(...valueIssues(question, getAnswer(answers, field), field));
        break;
    }
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

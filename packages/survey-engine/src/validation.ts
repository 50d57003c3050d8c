import { getAnswer } from "./answers.js";
import { evaluateConditions, hasResponse } from "./conditions.js";
import { formatMessage, MESSAGES } from "./messages.js";
import { hasChoiceFields, isQuestionVisible, questionPath, selectedValues } from "./questions.js";
import type {
  Answers,
  EvalContext,
  MessageId,
  Page,
  Question,
  Survey,
  ValidationCode,
  ValidationIssue,
} from "./types.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// SPEC 5: phone numbers are digits only; `formatPhone` adds the hyphens.
const PHONE = /^[0-9]+(-[0-9]+)*$/;

/** An issue whose text is the engine message `id` filled with `params`. */
export function issue(
  code: ValidationCode,
  field: string,
  id: MessageId,
  params?: Readonly<Record<string, string | number>>,
): ValidationIssue {
  const message = params === undefined ? MESSAGES[id] : formatMessage(MESSAGES[id], params);
  return params === undefined
    ? { code, field, message, messageId: id }
    : { code, field, message, messageId: id, params };
}

/** A required-answer issue: the question's own message when it has one, else the engine's. */
function requiredIssue(code: ValidationCode, question: Question, field: string): ValidationIssue {
  return question.requiredMessage === undefined
    ? issue(code, field, "required")
    : { code, field, message: question.requiredMessage };
}

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
  if (min !== undefined && max !== undefined) return issue("outOfRange", field, "outOfRange", { min, max });
  if (min !== undefined) return issue("outOfRange", field, "belowMin", { min });
  return issue("outOfRange", field, "aboveMax", { max: max as number });
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
  if (!hasResponse(value)) return question.required ? [requiredIssue("required", question, field)] : [];
  switch (question.type) {
    case "number":
    case "scale": {
      const number = toNumber(value);
      if (!Number.isFinite(number)) return [issue("invalidNumber", field, "invalidNumber")];
      const range = rangeIssue(question, field, number);
      return range === undefined ? [] : [range];
    }
    case "email":
      return typeof value === "string" && EMAIL.test(value.trim())
        ? []
        : [issue("invalidEmail", field, "invalidEmail")];
    case "date":
      return typeof value === "string" && isValidDate(value.trim())
        ? []
        : [issue("invalidDate", field, "invalidDate")];
    case "phone":
      return typeof value === "string" && PHONE.test(value.trim())
        ? []
        : [issue("invalidPhone", field, "invalidPhone")];
    case "text":
    case "textarea":
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

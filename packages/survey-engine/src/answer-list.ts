import { getAnswer, setAnswer } from "./answers.js";
import { hasResponse } from "./conditions.js";
import { describeQuestion } from "./question-types.js";
import { answerPaths, hasChoiceFields, questionPath, selectedValues } from "./questions.js";
import type { Answers, Choice, Question } from "./types.js";

/**
 * One answered question: its full path, the question, the values given (one per chosen choice for a
 * checkbox group, whether its choices store their values in fields of their own or in one list) and, for
 * each value, the survey's choice it names (undefined for a value no choice has, or a question without
 * choices). An answer no question of the survey writes has no `question`.
 */
export interface AnswerEntry {
  field: string;
  question?: Question;
  values: unknown[];
  choices: (Choice | undefined)[];
}

/** True for a question answered by picking from its `choices` (its descriptor's answer is a choice or a list of them). */
export function isChoiceQuestion(question: Question): boolean {
  const { answer } = describeQuestion(question);
  return (answer === "choice" || answer === "choices") && (question.choices?.length ?? 0) > 0;
}

/** The survey's choice that `value` names (values compare as text, as stored answers may be numbers). */
export function findChoice(question: Question, value: unknown): Choice | undefined {
  return question.choices?.find((choice) => choice.value === String(value));
}

/**
 * The answer of one (non-group, non-html) question under `prefix`, or undefined when it has none. Choice
 * questions give their selected values; any other question its value, or each item of a list.
 */
export function questionAnswer(question: Question, answers: Answers, prefix = ""): AnswerEntry | undefined {
  const field = questionPath(question, prefix);
  const { answer } = describeQuestion(question);
  if (answer === "fields" || answer === "none") return undefined;
  let values: unknown[];
  if (describeQuestion(question).answer === "choices" && hasChoiceFields(question)) {
    values = selectedValues(question, answers, prefix);
  } else {
    const value = getAnswer(answers, field);
    values = (Array.isArray(value) ? value : [value]).filter(hasResponse);
  }
  if (values.length === 0) return undefined;
  return {
    field,
    question,
    values,
    choices: values.map((value) => (isChoiceQuestion(question) ? findChoice(question, value) : undefined)),
  };
}

function collect(questions: readonly Question[], answers: Answers, prefix: string, into: AnswerEntry[]) {
  for (const question of questions) {
    if (describeQuestion(question).answer === "fields") {
      collect(question.fields ?? [], answers, questionPath(question, prefix), into);
      continue;
    }
    const entry = questionAnswer(question, answers, prefix);
    if (entry !== undefined) into.push(entry);
  }
}

/** Answers with top-level dotted keys (`"depression.phq9Sleep": …`, as a CSV column names them) nested. */
export function nestDottedKeys(answers: Answers): Answers {
  let nested = answers;
  for (const [key, value] of Object.entries(answers)) {
    if (!key.includes(".")) continue;
    const { [key]: _flat, ...rest } = nested;
    nested = setAnswer(rest, key, value);
  }
  return nested;
}

function leaves(value: unknown, prefix: string, into: [string, unknown][]): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) leaves(inner, prefix ? `${prefix}.${key}` : key, into);
  } else {
    into.push([prefix, value]);
  }
}

/**
 * Every answer of a result in the survey's question order, one entry per question (a checkbox group is
 * one entry whatever fields its choices use), followed by the answers no question of the survey writes,
 * by path, so nothing stored is left out. Every export and the staff result page read answers through
 * this one list, so they all show the same answers under the same questions.
 */
export function answerEntries(
  survey: { readonly pages: readonly { readonly questions: readonly Question[] }[] },
  stored: Answers,
): AnswerEntry[] {
  const answers = nestDottedKeys(stored);
  const entries: AnswerEntry[] = [];
  const known = new Set<string>();
  for (const page of survey.pages) {
    collect(page.questions, answers, "", entries);
    for (const question of page.questions) for (const path of answerPaths(question)) known.add(path);
  }
  const flat: [string, unknown][] = [];
  leaves(answers, "", flat);
  for (const [path, value] of flat) {
    if (known.has(path) || !hasResponse(value)) continue;
    const values = Array.isArray(value) ? value.filter(hasResponse) : [value];
    entries.push({ field: path, values, choices: values.map(() => undefined) });
  }
  return entries;
}

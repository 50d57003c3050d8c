import {
  answerEntries,
  describeQuestion,
  nestDottedKeys,
  scorePhq,
  type AnswerEntry,
  type AnswerKind,
  type Question,
} from "@core-care/survey-engine";
import { codeAnswer, fieldCoding, PHQ9_ITEMS, type CodedValue } from "./coding.js";
import type { Coding } from "./codes/loinc.js";
import type { DeliverySurvey } from "./types.js";

/**
 * How an answer travels, by its question's type (never by how the value happens to be stored, so a
 * score typed on the tablet and one from a CSV upload go out alike): the engine's export kind of the
 * question's type descriptor.
 */
export type { AnswerKind };

/** One value of an answer: the stored value, the words shown for it, and its standard code if any. */
export interface AnswerValue {
  /** The stored value as text (a choice's value, a number, a YYYY-MM-DD date, the typed text). */
  value: string;
  /** The choice's label, or the value itself. */
  label: string;
  /** The value in LOINC or SNOMED CT, when the field's confirmed answer list has it. */
  coded?: CodedValue;
  number?: number;
}

/** One answered question, in survey order, ready for any output format. */
export interface AnswerItem {
  fieldName: string;
  /** The question as the survey words it (the field name for an answer no question names). */
  title: string;
  /** The question's LOINC code, when the LOINC list confirms one. */
  question?: Coding;
  kind: AnswerKind;
  values: AnswerValue[];
  /** The labels of `values`, as every format shows them. */
  display: string[];
  /** True when the question takes several values (a checkbox group). */
  multiple: boolean;
  /** False for an answer that no question of the survey version names. */
  inSurvey: boolean;
}

/** The survey version's definition as the engine reads it. */
export const engineSurvey = (survey: DeliverySurvey) => ({
  pages: survey.pages.map((page) => ({
    ...page,
    title: page.title ?? "",
    conditions: page.conditions ?? [],
  })),
});

const text = (value: unknown): string =>
  typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : JSON.stringify(value);

function kindOf(question: Question | undefined, values: unknown[]): AnswerKind {
  if (question === undefined) {
    if (values.every((v) => typeof v === "number")) return "decimal";
    return values.some((v) => typeof v === "string" && /[\r\n]/.test(v)) ? "text" : "string";
  }
  // A type this version of the engine does not know gets the engine's free-answer descriptor.
  return describeQuestion(question).exportKind(question, values);
}

function toItem(entry: AnswerEntry): AnswerItem {
  const { question } = entry;
  const kind = kindOf(question, entry.values);
  const values = entry.values.map((raw, i): AnswerValue => {
    const value = kind === "text" ? text(raw) : text(raw).trim();
    const label = entry.choices[i]?.label ?? value;
    const item: AnswerValue = { value, label };
    const coded = codeAnswer(entry.field, raw) ?? codeAnswer(entry.field, label);
    if (coded) item.coded = coded;
    if (kind === "integer" || kind === "decimal") item.number = Number(value);
    return item;
  });
  const coding = fieldCoding(entry.field).question;
  return {
    fieldName: entry.field,
    title: question?.title ?? entry.field,
    ...(coding ? { question: coding } : {}),
    kind,
    values,
    display: values.map((v) => v.label),
    multiple:
      (question !== undefined && describeQuestion(question).answer === "choices") || values.length > 1,
    inSurvey: question !== undefined,
  };
}

/**
 * Every answered question of a result in survey order (a checkbox group is one item with a value per
 * chosen choice), followed by answers that no question of the survey version names (kept so that
 * nothing the patient entered is dropped). The list is the survey engine's `answerEntries`, the same
 * one the staff result page shows.
 */
export function answerItems(survey: DeliverySurvey, answers: Record<string, unknown>): AnswerItem[] {
  return answerEntries(engineSurvey(survey), answers).map(toItem);
}

/** Reads a dotted field name from answers, nested or under a flat key of that exact name. */
export function readAnswer(answers: Record<string, unknown>, fieldName: string): unknown {
  let node: unknown = nestDottedKeys(answers);
  for (const part of fieldName.split(".")) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

const isBlank = (v: unknown) =>
  v === undefined ||
  v === null ||
  (typeof v === "string" && v.trim() === "") ||
  (Array.isArray(v) && v.length === 0);

/** Answers with flat dotted keys moved into nested objects, as the engine reads them. */
export const nestAnswers = nestDottedKeys;

/** PHQ totals to report; a total is left out when none of its items was answered. */
export interface PhqScores {
  phq2?: number;
  phq9?: number;
}

/** PHQ-2 and PHQ-9 totals, scored by the survey engine (the one place PHQ scoring lives). */
export function phqScores(answers: Record<string, unknown>): PhqScores {
  const score = scorePhq(nestAnswers(answers));
  const screened = PHQ9_ITEMS.slice(0, 2).some((item) =>
    item.fields.some((f) => !isBlank(readAnswer(answers, f))),
  );
  const scores: PhqScores = {};
  if (screened) scores.phq2 = score.phq2;
  if (score.phq9 !== null) scores.phq9 = score.phq9;
  return scores;
}

/** The answerable questions of a survey, nested fields named by their dotted path. */
export function leafQuestions(questions: readonly Question[], prefix = ""): Question[] {
  return questions.flatMap((q) => {
    const fieldName = prefix ? `${prefix}.${q.fieldName}` : q.fieldName;
    const { answer } = describeQuestion(q);
    if (answer === "fields") return leafQuestions(q.fields ?? [], fieldName);
    return answer === "none" ? [] : [{ ...q, fieldName }];
  });
}

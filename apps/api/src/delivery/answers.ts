import { scorePhq, setAnswer } from "@core-care/survey-engine";
import { codeAnswer, fieldCoding, PHQ9_ITEMS, type CodedValue } from "./coding.js";
import type { Coding } from "./codes/loinc.js";
import type { DeliveryQuestion, DeliverySurvey } from "./types.js";

/** One answered question, in survey order, ready for any output format. */
export interface AnswerItem {
  fieldName: string;
  title: string;
  /** The question's LOINC code, when the LOINC list confirms one. */
  question?: Coding;
  kind: "coded" | "number" | "text";
  /** Human-readable values (choice labels), one per selected choice. */
  display: string[];
  coded?: CodedValue;
  number?: number;
  /** True when the answer is a list of choices (checkbox group). */
  multiple: boolean;
  /** False for an answer that no question of the survey version names. */
  inSurvey: boolean;
}

/** Reads a dotted field name from nested answers, or from a flat key of that exact name. */
export function readAnswer(answers: Record<string, unknown>, fieldName: string): unknown {
  if (Object.hasOwn(answers, fieldName)) return answers[fieldName];
  let node: unknown = answers;
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

/** The answerable questions of a survey, nested fields named by their dotted path. */
export function leafQuestions(questions: readonly DeliveryQuestion[], prefix = ""): DeliveryQuestion[] {
  return questions.flatMap((q) => {
    const fieldName = prefix ? `${prefix}.${q.fieldName}` : q.fieldName;
    if (q.fields && q.fields.length > 0) return leafQuestions(q.fields, fieldName);
    return [{ ...q, fieldName }];
  });
}

const NUMERIC_TYPES = new Set(["number", "range", "rating"]);

function toText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function flattenLeafValues(value: unknown, prefix: string): [string, unknown][] {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
      flattenLeafValues(v, prefix ? `${prefix}.${k}` : k),
    );
  }
  return [[prefix, value]];
}

function toItem(question: DeliveryQuestion | undefined, fieldName: string, value: unknown): AnswerItem {
  const coding = fieldCoding(fieldName);
  const labelOf = (v: unknown) => {
    const choice = question?.choices?.find((c) => String(c.value) === String(v));
    return choice?.label ?? toText(v);
  };
  const base = {
    fieldName,
    title: question?.title ?? fieldName,
    question: coding.question,
    inSurvey: question !== undefined,
  };
  if (Array.isArray(value)) {
    return { ...base, kind: "text", display: value.map(labelOf), multiple: true };
  }
  const coded = codeAnswer(fieldName, value) ?? codeAnswer(fieldName, labelOf(value));
  if (coded) return { ...base, kind: "coded", display: [labelOf(value)], coded, multiple: false };
  const numericQuestion = question ? NUMERIC_TYPES.has(question.type) && !question.choices : false;
  const asNumber = typeof value === "number" ? value : Number(value);
  if ((typeof value === "number" && !question?.choices) || (numericQuestion && Number.isFinite(asNumber))) {
    return { ...base, kind: "number", display: [toText(value)], number: asNumber, multiple: false };
  }
  return { ...base, kind: "text", display: [labelOf(value)], multiple: false };
}

/**
 * Every answered question of a result in survey order, followed by answers that no question of
 * the survey version names (kept so that nothing the patient entered is dropped).
 */
export function answerItems(survey: DeliverySurvey, answers: Record<string, unknown>): AnswerItem[] {
  const questions = survey.pages.flatMap((p) => leafQuestions(p.questions));
  const known = new Set(questions.map((q) => q.fieldName));
  const items: AnswerItem[] = [];
  for (const q of questions) {
    const value = readAnswer(answers, q.fieldName);
    if (!isBlank(value)) items.push(toItem(q, q.fieldName, value));
  }
  for (const [fieldName, value] of flattenLeafValues(answers, "")) {
    if (!known.has(fieldName) && !isBlank(value)) items.push(toItem(undefined, fieldName, value));
  }
  return items;
}

/** Answers with flat dotted keys (`"depression.phq9Sleep": …`) moved into nested objects, as the engine reads them. */
export function nestAnswers(answers: Record<string, unknown>): Record<string, unknown> {
  let nested: Record<string, unknown> = answers;
  for (const [key, value] of Object.entries(answers)) {
    if (!key.includes(".")) continue;
    const { [key]: _flat, ...rest } = nested;
    nested = setAnswer(rest, key, value);
  }
  return nested;
}

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

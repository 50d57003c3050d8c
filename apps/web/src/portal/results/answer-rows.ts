import type { Survey } from "@core-care/schema";
import { toText } from "../../ui/form";

interface QuestionLike {
  fieldName: string;
  title?: string | undefined;
  choices?: { value: unknown; label?: string | undefined }[] | undefined;
  fields?: QuestionLike[] | undefined;
}

/** One answer as shown read-only: the question (or field name), and the answer in words. */
export interface AnswerRow {
  path: string;
  question: string;
  answer: string;
}

function collect(questions: readonly QuestionLike[], prefix: string, into: Map<string, QuestionLike>): void {
  for (const question of questions) {
    const path = prefix ? `${prefix}.${question.fieldName}` : question.fieldName;
    into.set(path, question);
    if (question.fields) collect(question.fields, path, into);
  }
}

function flatten(value: unknown, prefix: string, into: [string, unknown][]): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  } else {
    into.push([prefix, value]);
  }
}

function describe(value: unknown, question: QuestionLike | undefined): string {
  const one = (v: unknown): string => {
    const choice = question?.choices?.find((c) => c.value === v);
    if (choice?.label) return choice.label;
    if (v === true) return "Yes";
    if (v === false) return "No";
    return toText(v);
  };
  return Array.isArray(value) ? value.map(one).join(", ") : one(value);
}

/**
 * The answers of a result in the survey's question order, labelled with the question titles of the
 * survey version the result was taken on; answers the survey does not know follow by field name.
 */
export function answerRows(
  answers: Record<string, unknown>,
  survey: Pick<Survey, "pages"> | null,
): AnswerRow[] {
  const questions = new Map<string, QuestionLike>();
  for (const page of survey?.pages ?? []) collect(page.questions, "", questions);
  const flat: [string, unknown][] = [];
  flatten(answers, "", flat);
  const order = [...questions.keys()];
  const rank = (path: string) => {
    const index = order.indexOf(path);
    return index === -1 ? order.length : index;
  };
  return flat
    .filter(([, value]) => value !== undefined && value !== "")
    .sort((a, b) => rank(a[0]) - rank(b[0]))
    .map(([path, value]) => {
      const question = questions.get(path);
      return { path, question: question?.title || path, answer: describe(value, question) };
    });
}

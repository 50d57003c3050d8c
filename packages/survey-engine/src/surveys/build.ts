import type { Choice, Condition, Page, Question, QuestionType } from "../types.js";

function fnv1a(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** A 24-hex id derived from a key, so built-in ids never change when questions are added or moved. */
export function stableId(key: string): string {
  return [0x811c9dc5, 0x01000193, 0x5bd1e995]
    .map((seed) => fnv1a(key, seed).toString(16).padStart(8, "0"))
    .join("");
}

type QuestionOptions = Partial<Omit<Question, "id" | "type" | "fieldName" | "title">>;

/** A built-in question whose id derives from the survey key and the field name. */
export function question(
  surveyKey: string,
  type: QuestionType,
  fieldName: string,
  title: string,
  options: QuestionOptions = {},
): Question {
  return { id: stableId(`${surveyKey}/question/${fieldName}`), type, fieldName, title, ...options };
}

/** Choices from `[value, label]` pairs. */
export function choices(pairs: ReadonlyArray<readonly [string, string]>): Choice[] {
  return pairs.map(([value, label]) => ({ value, label }));
}

/** Checkbox choices that each store their value in `<prefix><index>`. */
export function fieldChoices(prefix: string, pairs: ReadonlyArray<readonly [string, string]>): Choice[] {
  return pairs.map(([value, label], index) => ({ value, label, fieldName: `${prefix}${index}` }));
}

/** A built-in page whose id derives from the survey key and the page key. */
export function page(
  surveyKey: string,
  key: string,
  title: string,
  questions: Question[],
  options: { section?: string; conditions?: Condition[] } = {},
): Page {
  return {
    id: stableId(`${surveyKey}/page/${key}`),
    title,
    ...(options.section === undefined ? {} : { section: options.section }),
    conditions: options.conditions ?? [],
    questions,
  };
}

/** Shorthand for an 'and' condition. */
export function when(fieldName: string, action: string, fieldValue?: unknown): Condition {
  return fieldValue === undefined
    ? { fieldName, action, joinType: "and" }
    : { fieldName, fieldValue, action, joinType: "and" };
}

/** Shorthand for a condition joined to the one before it with 'or'. */
export function orWhen(fieldName: string, action: string, fieldValue?: unknown): Condition {
  return { ...when(fieldName, action, fieldValue), joinType: "or" };
}

import { describeQuestion } from "./question-types.js";
import { questionPath } from "./questions.js";
import type { Question, Survey } from "./types.js";

/** Field names that always hold protected health information (SPEC 3). */
export const PROTECTED_FIELD_NAMES: readonly string[] = [
  "name",
  "email",
  "address.street",
  "address.city",
  "address.state",
  "address.zip",
  "firstName",
  "lastName",
  "ssn",
  "phone",
  "dob",
  "patientId",
  "sex",
  "age",
  "mrn",
];

function collectPii(questions: readonly Question[], prefix: string, out: Set<string>): void {
  for (const question of questions) {
    const path = questionPath(question, prefix);
    if (question.pii) out.add(path);
    if (describeQuestion(question).answer === "fields") collectPii(question.fields ?? [], path, out);
  }
}

/** The spec's protected field names plus every question flagged `pii`, nested ones as `parent.child`. */
export function protectedFields(survey: Pick<Survey, "pages">): string[] {
  const fields = new Set(PROTECTED_FIELD_NAMES);
  for (const page of survey.pages) collectPii(page.questions, "", fields);
  return [...fields];
}

function deletePath(target: Record<string, unknown>, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in target)) return;
  if (rest.length === 0) {
    delete target[head];
    return;
  }
  const next = target[head];
  if (typeof next === "object" && next !== null && !Array.isArray(next)) {
    deletePath(next as Record<string, unknown>, rest);
  }
}

function strip(value: unknown, paths: readonly (readonly string[])[]): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, paths));
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = strip(item, paths);
  for (const path of paths) deletePath(copy, path);
  return copy;
}

/**
 * A copy of `data` with every one of `fields` (dotted paths, as {@link protectedFields} gives them)
 * removed wherever it occurs, at any depth and inside arrays; `data` itself is not changed.
 */
export function withoutFields(data: unknown, fields: readonly string[]): unknown {
  return strip(
    data,
    [...new Set(fields)].map((field) => field.split(".")),
  );
}

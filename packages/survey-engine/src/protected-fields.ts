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
    if (question.type === "group") collectPii(question.fields ?? [], path, out);
  }
}

/** The spec's protected field names plus every question flagged `pii`, nested ones as `parent.child`. */
export function protectedFields(survey: Pick<Survey, "pages">): string[] {
  const fields = new Set(PROTECTED_FIELD_NAMES);
  for (const page of survey.pages) collectPii(page.questions, "", fields);
  return [...fields];
}

import {
  answerPaths,
  describeQuestion,
  questionPath,
  type Question,
  type Survey,
} from "@core-care/survey-engine";
import { toText } from "../ui/form";

/** The globals a condition may read besides the answers (SPEC 3). */
export const GLOBAL_FIELDS = ["tenant.id", "tenant.location.id", "sex", "age"] as const;

/** One choice of a condition's field picker. */
export interface FieldOption {
  path: string;
  label: string;
  /** The question type, or 'global'. */
  kind: Question["type"] | "global";
  /** The answers the field can hold, when its question offers choices: a condition's value picks one. */
  choices?: readonly { value: string | number | boolean; label: string }[];
}

function collect(questions: readonly Question[], prefix: string, out: FieldOption[]): void {
  for (const question of questions) {
    if (describeQuestion(question).answer === "fields") {
      collect(question.fields ?? [], questionPath(question, prefix), out);
      continue;
    }
    const paths = answerPaths(question, prefix);
    const title = question.title.trim();
    // One answer out of the choices: a checkbox answers a list (or yes/no on each choice's own field),
    // which no single choice equals.
    const choices =
      paths.length === 1 &&
      describeQuestion(question).answer !== "choices" &&
      question.choices !== undefined &&
      question.choices.length > 0
        ? question.choices.map((choice) => ({ value: choice.value, label: choice.label }))
        : undefined;
    for (const path of paths) {
      const label = title === "" ? path : `${path} (${title})`;
      out.push(
        choices === undefined
          ? { path, label, kind: question.type }
          : { path, label, kind: question.type, choices },
      );
    }
  }
}

/** Every answer path of the survey's questions, in page order, then the globals (SPEC 3). */
export function fieldOptions(survey: Pick<Survey, "pages">): FieldOption[] {
  const options: FieldOption[] = [];
  for (const page of survey.pages) collect(page.questions, "", options);
  const seen = new Set<string>();
  const unique = options.filter((option) => !seen.has(option.path) && seen.add(option.path));
  return [
    ...unique,
    ...GLOBAL_FIELDS.map((path) => ({ path, label: `${path} (global)`, kind: "global" as const })),
  ];
}

/**
 * The value a condition compares with, from what was typed: numbers for number questions, 'age' and
 * the ordering actions when the text is a number; a list for 'One Of' (comma separated); text otherwise.
 */
export function conditionValue(text: string, action: string, kind: FieldOption["kind"] | undefined): unknown {
  if (action === "One Of") {
    return text
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "");
  }
  const numeric = text.trim() !== "" && Number.isFinite(Number(text));
  const numberField = kind === "number" || kind === "scale";
  if (numeric && (numberField || action === "Greater Than" || action === "Less Than")) return Number(text);
  return text;
}

/** A condition's value as the text its input shows. */
export function conditionText(value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => conditionText(item)).join(", ");
  return toText(value);
}

/** Moves the item at `from` by `step` places (clamped); returns a new list. */
export function moveItem<T>(items: readonly T[], from: number, step: number): T[] {
  const to = Math.min(Math.max(from + step, 0), items.length - 1);
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** Replaces the item at `index`; returns a new list. */
export function replaceAt<T>(items: readonly T[], index: number, item: T): T[] {
  return items.map((current, i) => (i === index ? item : current));
}

/** Removes the item at `index`; returns a new list. */
export function removeAt<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, i) => i !== index);
}

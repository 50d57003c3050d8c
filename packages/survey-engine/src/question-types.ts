import { hasResponse } from "./conditions.js";
import { issue } from "./messages.js";
import type { Choice, Question, ValidationIssue } from "./types.js";

/**
 * Every question type the engine knows, in the order the designer offers them. A type is added here and
 * in `QUESTION_TYPE_DESCRIPTORS` below, and its renderer in the web's registry (see the README).
 */
export const QUESTION_TYPES = [
  "text",
  "textarea",
  "number",
  "date",
  "phone",
  "email",
  "select",
  "radio",
  "checkbox",
  "yesno",
  "scale",
  "group",
  "html",
] as const;

/** Every question type the engine knows. */
export type QuestionType = (typeof QUESTION_TYPES)[number];

/**
 * What an answer is: nothing (static text), the answers of the nested `fields` (a group), one typed
 * value, one of the question's choices, or a list of them (or the per-choice fields of a checkbox group).
 */
export type AnswerShape = "none" | "fields" | "value" | "choice" | "choices";

/**
 * How an answered value travels in the exports: a choice of the survey's, a whole number, a decimal, a
 * date, one line of text or text that may hold line breaks.
 */
export type AnswerKind = "choice" | "integer" | "decimal" | "date" | "string" | "text";

/** The HL7 v2 OBX-2 value type of each answer kind. */
export type Hl7ValueType = "CWE" | "NM" | "DT" | "FT" | "ST";

/** The FHIR Questionnaire item type a question becomes. */
export type FhirItemType =
  "choice" | "integer" | "decimal" | "date" | "string" | "text" | "group" | "display";

/** The QuestionnaireResponse answer property of a FHIR item type's answers. */
export type FhirAnswerKey = "valueCoding" | "valueInteger" | "valueDecimal" | "valueDate" | "valueString";

/** A setting of a question that the survey designer edits. */
export type DesignerField = "title" | "text" | "help" | "required" | "pii" | "range" | "choices" | "fields";

/** Everything the product knows of one question type: its answer, its check, its exports, its editor. */
export interface QuestionTypeDescriptor {
  type: QuestionType;
  /** The answer's shape. */
  answer: AnswerShape;
  /** The problems of one answered value's format and range; none for a value the type does not check. */
  check: (question: Question, value: unknown, field: string) => ValidationIssue[];
  /** True when a value is no answer (blank text, an empty list, nothing). */
  isEmpty: (value: unknown) => boolean;
  /** One answered value in words, for summaries: its choice's label, yes/no for a boolean, else its text. */
  text: (value: unknown, choice?: Choice) => string;
  /** An answer the check accepts, for demos and seeds (undefined for a type without one). */
  sample: (question: Question) => unknown;
  /** The export kind of a question's answered values (a number question's text travels as text). */
  exportKind: (question: Question, values: readonly unknown[]) => AnswerKind;
  hl7: {
    /** The OBX-2 value type of the question's answered values (OBX-5 holds them as that type). */
    valueType: (question: Question, values: readonly unknown[]) => Hl7ValueType;
  };
  fhir: {
    /** The Questionnaire item type, from the definition alone. */
    itemType: (question: Question) => FhirItemType;
    /** True when the item takes several answers. */
    repeats: boolean;
  };
  /** The CSV columns (answer paths) of the question under a group prefix: a CSV upload names these. */
  csvColumns: (question: Question, prefix: string) => string[];
  designer: {
    /** The name the designer shows. */
    label: string;
    /** The settings its editor shows, besides the type, the field name and the conditions. */
    fields: readonly DesignerField[];
    /** What a new question of the type starts with. */
    defaults: () => Partial<Question>;
  };
}

/** The OBX-2 value type of each export kind (HL7 v2.5.1 table 0125). */
export const HL7_VALUE_TYPES: Readonly<Record<AnswerKind, Hl7ValueType>> = {
  choice: "CWE",
  integer: "NM",
  decimal: "NM",
  date: "DT",
  text: "FT",
  string: "ST",
};

/** The QuestionnaireResponse answer property of each FHIR item type. */
export const FHIR_ANSWER_KEYS: Readonly<Record<FhirItemType, FhirAnswerKey>> = {
  choice: "valueCoding",
  integer: "valueInteger",
  decimal: "valueDecimal",
  date: "valueDate",
  string: "valueString",
  text: "valueString",
  group: "valueString",
  display: "valueString",
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
// SPEC 5: phone numbers are digits only; `formatPhone` adds the hyphens.
const PHONE = /^[0-9]+(-[0-9]+)*$/;

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

const checkNothing = (): ValidationIssue[] => [];

function checkNumber(question: Question, value: unknown, field: string): ValidationIssue[] {
  const number = toNumber(value);
  if (!Number.isFinite(number)) return [issue("invalidNumber", field, "invalidNumber")];
  const range = rangeIssue(question, field, number);
  return range === undefined ? [] : [range];
}

/** A check that the value is text matching `test`, else the issue `code`. */
const checkText =
  (test: (text: string) => boolean, code: "invalidEmail" | "invalidDate" | "invalidPhone") =>
  (_question: Question, value: unknown, field: string): ValidationIssue[] =>
    typeof value === "string" && test(value.trim()) ? [] : [issue(code, field, code)];

const isEmpty = (value: unknown) => !hasResponse(value);

/** A value as display text: strings as they are, numbers and booleans in words, objects as JSON, nothing as ''. */
function valueText(value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "bigint":
      return String(value);
    case "boolean":
      return value ? "Yes" : "No";
    case "object":
      return value === null ? "" : JSON.stringify(value);
    case "undefined":
    case "symbol":
    case "function":
      return "";
  }
}

const text = (value: unknown, choice?: Choice) => (choice?.label ? choice.label : valueText(value));

const ownColumn = (question: Question, prefix: string) => [
  prefix === "" ? question.fieldName : `${prefix}.${question.fieldName}`,
];

const hasChoices = (question: Question) => (question.choices?.length ?? 0) > 0;

/** A question with choices travels as a choice, whatever its type says of free answers. */
const choiceOr =
  (kind: (question: Question, values: readonly unknown[]) => AnswerKind) =>
  (question: Question, values: readonly unknown[]): AnswerKind =>
    hasChoices(question) ? "choice" : kind(question, values);

const numbersOf = (values: readonly unknown[]) =>
  values.map((v) => (typeof v === "number" ? v : Number(String(v).trim())));

const fixed = (kind: AnswerKind) => () => kind;
const fixedItem = (type: FhirItemType) => () => type;
const choiceItemOr = (type: FhirItemType) => (question: Question) => (hasChoices(question) ? "choice" : type);

const ANSWERED: readonly DesignerField[] = ["title", "help", "required", "pii"];

/** A descriptor from its parts; the HL7 value type follows the export kind. */
function describe(
  parts: Omit<QuestionTypeDescriptor, "hl7" | "isEmpty" | "text" | "csvColumns" | "fhir"> &
    Partial<Pick<QuestionTypeDescriptor, "csvColumns">> & {
      fhir: Omit<QuestionTypeDescriptor["fhir"], "repeats"> & { repeats?: boolean };
    },
): QuestionTypeDescriptor {
  return {
    isEmpty,
    text,
    csvColumns: ownColumn,
    ...parts,
    hl7: { valueType: (question, values) => HL7_VALUE_TYPES[parts.exportKind(question, values)] },
    fhir: { repeats: false, ...parts.fhir },
  };
}

const noDefaults = () => ({});

/** A per-choice column of a checkbox group whose every choice has its own field. */
function checkboxColumns(question: Question, prefix: string): string[] {
  const choices = question.choices ?? [];
  if (choices.length > 0 && choices.every((choice) => typeof choice.fieldName === "string")) {
    return choices.map((choice) => (prefix === "" ? choice.fieldName! : `${prefix}.${choice.fieldName!}`));
  }
  return ownColumn(question, prefix);
}

/** A free answer whose format the type does not check: text, e-mail and the like. */
const freeText = (
  label: string,
  type: QuestionType,
  sample: unknown,
  check: QuestionTypeDescriptor["check"] = checkNothing,
) =>
  describe({
    type,
    answer: "value",
    check,
    sample: () => sample,
    exportKind: choiceOr(fixed("string")),
    fhir: { itemType: fixedItem("string") },
    designer: { label, fields: ANSWERED, defaults: noDefaults },
  });

/** One answer out of the question's choices. */
const oneChoice = (label: string, type: QuestionType, defaults: () => Partial<Question>) =>
  describe({
    type,
    answer: "choice",
    check: checkNothing,
    sample: (question) => question.choices?.[0]?.value,
    exportKind: choiceOr(fixed("string")),
    fhir: { itemType: choiceItemOr("string") },
    designer: { label, fields: [...ANSWERED, "choices"], defaults },
  });

/** Each question type's descriptor: the one place a type's behaviour is written down. */
export const QUESTION_TYPE_DESCRIPTORS: Readonly<Record<QuestionType, QuestionTypeDescriptor>> = {
  text: describe({
    type: "text",
    answer: "value",
    check: checkNothing,
    sample: () => "Answered",
    exportKind: fixed("string"),
    fhir: { itemType: fixedItem("string") },
    designer: { label: "Text", fields: ANSWERED, defaults: noDefaults },
  }),
  textarea: describe({
    type: "textarea",
    answer: "value",
    check: checkNothing,
    sample: () => "Answered",
    exportKind: fixed("text"),
    fhir: { itemType: fixedItem("text") },
    designer: { label: "Long text", fields: ANSWERED, defaults: noDefaults },
  }),
  number: describe({
    type: "number",
    answer: "value",
    check: checkNumber,
    sample: (question) => String(question.min ?? 0),
    exportKind: choiceOr((_q, values) => (numbersOf(values).every(Number.isFinite) ? "decimal" : "string")),
    fhir: { itemType: fixedItem("decimal") },
    designer: { label: "Number", fields: [...ANSWERED, "range"], defaults: noDefaults },
  }),
  date: describe({
    type: "date",
    answer: "value",
    check: checkText(isValidDate, "invalidDate"),
    sample: () => "2000-01-01",
    exportKind: choiceOr((_q, values) =>
      values.every((v) => typeof v === "string" && ISO_DATE_SHAPE.test(v.trim())) ? "date" : "string",
    ),
    fhir: { itemType: fixedItem("date") },
    designer: { label: "Date", fields: ANSWERED, defaults: noDefaults },
  }),
  phone: freeText(
    "Telephone",
    "phone",
    "5551234567",
    checkText((t) => PHONE.test(t), "invalidPhone"),
  ),
  email: freeText(
    "E-mail",
    "email",
    "patient@example.org",
    checkText((t) => EMAIL.test(t), "invalidEmail"),
  ),
  select: oneChoice("Dropdown", "select", () => ({ choices: [] })),
  radio: oneChoice("Single choice (radio)", "radio", () => ({ choices: [] })),
  checkbox: describe({
    type: "checkbox",
    answer: "choices",
    check: checkNothing,
    sample: (question) => {
      const first = question.choices?.find((c) => c.value !== question.noneValue) ?? question.choices?.[0];
      return first === undefined ? undefined : [first.value];
    },
    exportKind: choiceOr(fixed("string")),
    fhir: { itemType: choiceItemOr("string"), repeats: true },
    csvColumns: checkboxColumns,
    designer: {
      label: "Multiple choice (checkboxes)",
      fields: [...ANSWERED, "choices"],
      defaults: () => ({ choices: [] }),
    },
  }),
  yesno: oneChoice("Yes / No", "yesno", () => ({
    choices: [
      { value: "yes", label: "Yes" },
      { value: "no", label: "No" },
    ],
  })),
  scale: describe({
    type: "scale",
    answer: "value",
    check: checkNumber,
    sample: (question) => String(question.min ?? 0),
    exportKind: choiceOr((_q, values) => {
      const numbers = numbersOf(values);
      if (numbers.every(Number.isInteger)) return "integer";
      return numbers.every(Number.isFinite) ? "decimal" : "string";
    }),
    fhir: { itemType: fixedItem("integer") },
    designer: { label: "Scale", fields: [...ANSWERED, "range", "choices"], defaults: noDefaults },
  }),
  group: describe({
    type: "group",
    answer: "fields",
    check: checkNothing,
    sample: () => undefined,
    exportKind: fixed("string"),
    fhir: { itemType: fixedItem("group") },
    csvColumns: (question, prefix) => {
      const inner = ownColumn(question, prefix)[0]!;
      return (question.fields ?? []).flatMap((field) => questionType(field.type).csvColumns(field, inner));
    },
    designer: {
      label: "Group of fields",
      fields: ["title", "help", "pii", "fields"],
      defaults: () => ({ fields: [] }),
    },
  }),
  html: describe({
    type: "html",
    answer: "none",
    check: checkNothing,
    sample: () => undefined,
    exportKind: fixed("string"),
    fhir: { itemType: fixedItem("display") },
    csvColumns: () => [],
    designer: { label: "Static text", fields: ["text"], defaults: noDefaults },
  }),
};

/**
 * A type no descriptor names (a survey stored by a newer designer): a free answer, sent as text, or as
 * a choice when it has choices.
 */
const UNKNOWN: QuestionTypeDescriptor = {
  ...freeText("Unknown", "text", "Answered"),
  designer: { label: "Unknown", fields: ANSWERED, defaults: noDefaults },
};

/** True for a type the engine describes. */
export function isQuestionType(type: unknown): type is QuestionType {
  return typeof type === "string" && Object.hasOwn(QUESTION_TYPE_DESCRIPTORS, type);
}

/** The descriptor of a question type; a type the engine does not know gets that of a free answer. */
export function questionType(type: string): QuestionTypeDescriptor {
  return isQuestionType(type) ? QUESTION_TYPE_DESCRIPTORS[type] : UNKNOWN;
}

/** The descriptor of a question's type. */
export const describeQuestion = (question: Pick<Question, "type">) => questionType(question.type);

import type { QuestionType } from "./question-types.js";

/** The canonical condition actions; see `CONDITION_ACTIONS` in conditions.ts. */
export type ConditionAction =
  "Equals" | "Not Equals" | "Greater Than" | "Less Than" | "Has Response" | "One Of";

/** How a condition joins the one before it. */
export type JoinType = "and" | "or";

/**
 * One condition. `fieldName` is a dotted path into the answers (`pain.hadPain`, `list.0.name`) or one of
 * the context globals `tenant.id`, `tenant.location.id`, `tenant.settings.<name>`, `sex`, `age`.
 * `action` is a `ConditionAction`; other spellings (`Greater than`, `has response`) are accepted.
 */
export interface Condition {
  fieldName: string;
  fieldValue?: unknown;
  action: string;
  joinType?: JoinType;
}

/**
 * Texts of a survey element in other languages, keyed by language code (`es`). Only texts are
 * translated: values, field names and conditions are the same in every language, so stored answers are.
 * A text missing in a language falls back to the element's own (English) text.
 */
export type Translations<T> = Record<string, T>;

/** One option of a select, radio or checkbox question. A checkbox choice with its own `fieldName` stores its value there. */
export interface Choice {
  value: string;
  label: string;
  fieldName?: string;
  translations?: Translations<{ label?: string }>;
}

/** The texts of a question that a translation may give. */
export interface QuestionTexts {
  title?: string;
  help?: string;
  placeholder?: string;
  requiredMessage?: string;
}

/** Every question type the engine knows: `QUESTION_TYPES` in question-types.ts. */
export type { QuestionType } from "./question-types.js";

/**
 * One question. A `group` holds nested `fields` whose answers live under the group's `fieldName`
 * (`address` + `street` = `address.street`); an `html` question is static text with no answer.
 */
export interface Question {
  id: string;
  type: QuestionType;
  fieldName: string;
  title: string;
  required?: boolean;
  choices?: Choice[];
  fields?: Question[];
  pii?: boolean;
  visibleWhen?: Condition[];
  placeholder?: string;
  help?: string;
  min?: number;
  max?: number;
  /** The checkbox choice value that means "none of these"; it cannot be combined with other choices. */
  noneValue?: string;
  /** Replaces `MESSAGES.required` when this required question has no answer. */
  requiredMessage?: string;
  translations?: Translations<QuestionTexts>;
}

/** A titled section that pages refer to by id. */
export interface Section {
  id: string;
  title: string;
  translations?: Translations<{ title?: string }>;
}

/** A page; it shows only when its `conditions` hold. */
export interface Page {
  id: string;
  title: string;
  section?: string;
  conditions: Condition[];
  questions: Question[];
  translations?: Translations<{ title?: string }>;
}

/** A survey definition. */
export interface Survey {
  id: string;
  title: string;
  description: string;
  canSubscribeTo: boolean;
  sections: Section[];
  pages: Page[];
  version: number;
  /** Label of the button on the last page; runners default to 'Submit'. */
  submitLabel?: string;
  translations?: Translations<{ title?: string; description?: string; submitLabel?: string }>;
}

/** Answers as nested JSON: the answer to `pain.hadPain` lives at `answers.pain.hadPain`. */
export type Answers = Record<string, unknown>;

/** Tenant facts that conditions may read as `tenant.id`, `tenant.location.id` and `tenant.settings.<name>`. */
export interface EvalTenant {
  id: string;
  location?: { id: string };
  settings?: { alternateFalls?: boolean; [name: string]: unknown };
}

/** Everything a condition can read: the answers plus the globals `tenant`, `sex` and `age`. */
export interface EvalContext {
  answers: Answers;
  tenant?: EvalTenant;
  sex?: string;
  age?: number;
}

/** Stable codes of validation issues. */
export type ValidationCode =
  | "required"
  | "groupRequired"
  | "noneExclusive"
  | "invalidNumber"
  | "outOfRange"
  | "invalidEmail"
  | "invalidDate"
  | "invalidPhone"
  | "invalidChoice";

/** One validation problem of one field (its full dotted path). */
export interface ValidationIssue {
  code: ValidationCode;
  field: string;
  /** The English text: the `MESSAGES` entry `messageId` filled with `params`, or the question's own message. */
  message: string;
  /**
   * The `MESSAGES` entry the text came from, for apps that show it in another language; absent when the
   * text is the question's own `requiredMessage`, which a survey translation gives instead.
   */
  messageId?: MessageId;
  /** The values of the message's `{name}` placeholders. */
  params?: Readonly<Record<string, string | number>>;
}

/** The key of an engine message (see `MESSAGES`). */
export type MessageId =
  | "required"
  | "fieldRequired"
  | "dietRequired"
  | "householdRequired"
  | "painLocationRequired"
  | "noneExclusive"
  | "invalidNumber"
  | "outOfRange"
  | "belowMin"
  | "aboveMax"
  | "invalidEmail"
  | "invalidDate"
  | "invalidPhone"
  | "invalidChoice";

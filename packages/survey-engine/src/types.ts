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

/** One option of a select, radio or checkbox question. A checkbox choice with its own `fieldName` stores its value there. */
export interface Choice {
  value: string;
  label: string;
  fieldName?: string;
}

/** Every question type the engine knows. */
export type QuestionType =
  | "text"
  | "textarea"
  | "number"
  | "date"
  | "phone"
  | "email"
  | "select"
  | "radio"
  | "checkbox"
  | "yesno"
  | "scale"
  | "group"
  | "html";

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
}

/** A titled section that pages refer to by id. */
export interface Section {
  id: string;
  title: string;
}

/** A page; it shows only when its `conditions` hold. */
export interface Page {
  id: string;
  title: string;
  section?: string;
  conditions: Condition[];
  questions: Question[];
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
  | "invalidDate";

/** One validation problem of one field (its full dotted path). */
export interface ValidationIssue {
  code: ValidationCode;
  field: string;
  message: string;
}

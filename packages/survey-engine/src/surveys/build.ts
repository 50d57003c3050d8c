import type { Choice, Condition, Page, Question, QuestionType, Survey } from "../types.js";

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

/** A question's texts in another language; `choices` by choice value, over the survey's shared `choices`. */
export interface QuestionTranslation {
  title: string;
  help?: string;
  placeholder?: string;
  requiredMessage?: string;
  choices?: Readonly<Record<string, string>>;
}

/** A built-in survey's texts in one language. */
export interface SurveyTranslation {
  title: string;
  description: string;
  submitLabel?: string;
  /** Section titles by section id. */
  sections: Readonly<Record<string, string>>;
  /** Page titles by the page's own (English) title. */
  pages: Readonly<Record<string, string>>;
  /** Question texts by the question's full field path (`family.cancer`). */
  questions: Readonly<Record<string, QuestionTranslation>>;
  /** Choice labels by their English label, for choices a question does not translate itself. */
  choices: Readonly<Record<string, string>>;
}

function translateQuestion(
  question: Question,
  language: string,
  table: SurveyTranslation,
  prefix: string,
): Question {
  const path = prefix === "" ? question.fieldName : `${prefix}.${question.fieldName}`;
  const own = table.questions[path];
  const texts: NonNullable<Question["translations"]>[string] = {};
  if (own !== undefined) {
    texts.title = own.title;
    if (own.help !== undefined) texts.help = own.help;
    if (own.placeholder !== undefined) texts.placeholder = own.placeholder;
    if (own.requiredMessage !== undefined) texts.requiredMessage = own.requiredMessage;
  }
  const translated: Question = { ...question, translations: { ...question.translations, [language]: texts } };
  if (question.choices !== undefined) {
    translated.choices = question.choices.map((choice) => {
      const label = own?.choices?.[choice.value] ?? table.choices[choice.label];
      return label === undefined
        ? choice
        : { ...choice, translations: { ...choice.translations, [language]: { label } } };
    });
  }
  if (question.fields !== undefined) {
    translated.fields = question.fields.map((field) => translateQuestion(field, language, table, path));
  }
  return translated;
}

/** The survey carrying `table` as its `language` translation of every text the table has. */
export function withTranslation(survey: Survey, language: string, table: SurveyTranslation): Survey {
  const texts: NonNullable<Survey["translations"]>[string] = {
    title: table.title,
    description: table.description,
  };
  if (table.submitLabel !== undefined) texts.submitLabel = table.submitLabel;
  return {
    ...survey,
    translations: { ...survey.translations, [language]: texts },
    sections: survey.sections.map((section) => {
      const title = table.sections[section.id];
      return title === undefined
        ? section
        : { ...section, translations: { ...section.translations, [language]: { title } } };
    }),
    pages: survey.pages.map((page) => {
      const title = table.pages[page.title];
      return {
        ...page,
        ...(title === undefined ? {} : { translations: { ...page.translations, [language]: { title } } }),
        questions: page.questions.map((question) => translateQuestion(question, language, table, "")),
      };
    }),
  };
}

import type { Choice, Page, Question, Section, Survey, Translations } from "./types.js";

/** The language a survey's own texts are written in. */
export const SOURCE_LANGUAGE = "en";

function pick<T extends object, K extends keyof T & string>(
  own: Record<K, string | undefined>,
  translations: Translations<T> | undefined,
  language: string,
): Record<K, string | undefined> {
  const texts = translations?.[language] as Partial<Record<K, unknown>> | undefined;
  const result: Record<K, string | undefined> = { ...own };
  if (texts === undefined) return result;
  for (const key of Object.keys(own) as K[]) {
    const text = texts[key];
    // A blank translation is a missing one: the patient reads the survey's own text instead.
    if (typeof text === "string" && text.trim() !== "" && own[key] !== undefined) result[key] = text;
  }
  return result;
}

function localizeChoice(choice: Choice, language: string): Choice {
  const { label } = pick<{ label?: string }, "label">({ label: choice.label }, choice.translations, language);
  return { ...choice, label: label ?? choice.label };
}

function localizeQuestion(question: Question, language: string): Question {
  const texts = pick(
    {
      title: question.title,
      help: question.help,
      placeholder: question.placeholder,
      requiredMessage: question.requiredMessage,
    },
    question.translations,
    language,
  );
  const localized: Question = { ...question, title: texts.title ?? question.title };
  if (texts.help !== undefined) localized.help = texts.help;
  if (texts.placeholder !== undefined) localized.placeholder = texts.placeholder;
  if (texts.requiredMessage !== undefined) localized.requiredMessage = texts.requiredMessage;
  if (question.choices !== undefined)
    localized.choices = question.choices.map((choice) => localizeChoice(choice, language));
  if (question.fields !== undefined)
    localized.fields = question.fields.map((field) => localizeQuestion(field, language));
  return localized;
}

function localizeTitled<T extends Section | Page>(element: T, language: string): T {
  const { title } = pick<{ title?: string }, "title">(
    { title: element.title },
    element.translations,
    language,
  );
  return { ...element, title: title ?? element.title };
}

/**
 * The survey as a patient reading `language` sees it: every title, description, help text, choice label,
 * required message and button label replaced by its translation where the survey has one, and left in
 * the survey's own language where it has none. Ids, field names, values and conditions are untouched, so
 * the answers given to the localized survey are exactly those the original would store.
 */
export function localizeSurvey(survey: Survey, language: string): Survey {
  if (language === SOURCE_LANGUAGE) return survey;
  const texts = pick(
    { title: survey.title, description: survey.description, submitLabel: survey.submitLabel },
    survey.translations,
    language,
  );
  const localized: Survey = {
    ...survey,
    title: texts.title ?? survey.title,
    description: texts.description ?? survey.description,
    sections: survey.sections.map((section) => localizeTitled(section, language)),
    pages: survey.pages.map((page) => ({
      ...localizeTitled(page, language),
      questions: page.questions.map((question) => localizeQuestion(question, language)),
    })),
  };
  if (texts.submitLabel !== undefined) localized.submitLabel = texts.submitLabel;
  return localized;
}

function missing(own: string | undefined, translated: string | undefined): boolean {
  return own !== undefined && own.trim() !== "" && (translated === undefined || translated.trim() === "");
}

function questionGaps(question: Question, language: string, path: string, gaps: string[]): void {
  const texts = question.translations?.[language];
  const where = `${path}${question.fieldName}`;
  if (missing(question.title, texts?.title)) gaps.push(`${where}.title`);
  if (missing(question.help, texts?.help)) gaps.push(`${where}.help`);
  if (missing(question.placeholder, texts?.placeholder)) gaps.push(`${where}.placeholder`);
  if (missing(question.requiredMessage, texts?.requiredMessage)) gaps.push(`${where}.requiredMessage`);
  for (const choice of question.choices ?? []) {
    if (missing(choice.label, choice.translations?.[language]?.label))
      gaps.push(`${where}.choices.${choice.value}`);
  }
  for (const field of question.fields ?? []) questionGaps(field, language, `${where}.`, gaps);
}

/**
 * Where a survey has no `language` text (`title`, `sections.<id>`, `pages.<id>`, `<fieldName>.title`,
 * `<fieldName>.choices.<value>`, …); empty when every text is translated.
 */
export function missingTranslations(survey: Survey, language: string): string[] {
  const gaps: string[] = [];
  const texts = survey.translations?.[language];
  if (missing(survey.title, texts?.title)) gaps.push("title");
  if (missing(survey.description, texts?.description)) gaps.push("description");
  if (missing(survey.submitLabel, texts?.submitLabel)) gaps.push("submitLabel");
  for (const section of survey.sections) {
    if (missing(section.title, section.translations?.[language]?.title)) gaps.push(`sections.${section.id}`);
  }
  for (const page of survey.pages) {
    if (missing(page.title, page.translations?.[language]?.title)) gaps.push(`pages.${page.id}`);
    for (const question of page.questions) questionGaps(question, language, "", gaps);
  }
  return gaps;
}

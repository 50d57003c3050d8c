/**
 * Translations of a survey's texts as the designer edits them: beside each English text, the same text
 * in the patients' second language. A text left empty has no translation and shows in English (the
 * survey engine's fallback). Values, field names and conditions are never translated.
 */

/** The language the designer offers beside English (the patient pages' other language). */
export const SECOND_LANGUAGE = { code: "es", name: "Spanish" } as const;

type Texts = Record<string, string | undefined>;
type Translatable = { translations?: Record<string, Texts> | undefined };

/** The translation of one text of an item ('' when it has none). */
export function translationOf(item: object, key: string, language: string = SECOND_LANGUAGE.code): string {
  return (item as Translatable).translations?.[language]?.[key] ?? "";
}

/** The item with one text's translation set, or removed when `value` is empty (no empty objects kept). */
export function withTranslation<I extends object>(
  item: I,
  key: string,
  value: string,
  language: string = SECOND_LANGUAGE.code,
): I {
  const current = (item as Translatable).translations;
  const texts: Texts = { ...(current?.[language] ?? {}) };
  if (value === "") delete texts[key];
  else texts[key] = value;
  const translations: Record<string, Texts> = { ...(current ?? {}) };
  if (Object.keys(texts).length === 0) delete translations[language];
  else translations[language] = texts;
  const next = { ...item } as I & Translatable;
  if (Object.keys(translations).length === 0) delete next.translations;
  else next.translations = translations;
  return next;
}

import { createInstance, type i18n as I18n, type TFunction } from "i18next";
import { initReactI18next } from "react-i18next";
import type { ValidationIssue } from "@core-care/survey-engine";
import type { PatientLanguage } from "@core-care/schema";
import en from "./locales/en.json";
import es from "./locales/es.json";

/** The message catalogue of each patient language; every key of one is in the others (a test holds it). */
export const CATALOGUES = { en, es } as const satisfies Record<PatientLanguage, unknown>;

/** The patient languages, in the order the language switch lists them. */
export const LANGUAGES: readonly PatientLanguage[] = ["en", "es"];

export function isPatientLanguage(value: unknown): value is PatientLanguage {
  return value === "en" || value === "es";
}

/**
 * The i18next instance of the patient screens (the tablet runner, the Tele-AWV pages). Catalogues are
 * bundled, so it is ready synchronously and never fetches. Staff screens do not use it and stay in English.
 */
export const i18n: I18n = createInstance();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, es: { translation: es } },
  lng: "en",
  fallbackLng: "en",
  supportedLngs: LANGUAGES,
  initAsync: false,
  // React escapes what it renders; the catalogues hold plain text.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/**
 * Shows the patient screens in `language` and says so on the page (`<html lang>`), so that screen
 * readers read it with the right voice.
 */
export function setPatientLanguage(language: PatientLanguage): void {
  if (i18n.language !== language) void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

/**
 * A validation issue in the patient's language: the engine's message by its id, or the question's own
 * message, which the survey's translation has already given in that language.
 */
export function issueText(issue: ValidationIssue, t: TFunction): string {
  if (issue.messageId === undefined) return issue.message;
  return t(`validation.${issue.messageId}`, { ...issue.params });
}

import { useTranslation } from "react-i18next";
import type { PatientLanguage } from "@core-care/schema";
import { LANGUAGES } from "./i18n";

/**
 * The patient's choice of language: one button per language, each labelled in its own language (and
 * marked as such for screen readers), the current one pressed.
 */
export function LanguageSwitch({
  value,
  onChange,
}: {
  value: PatientLanguage;
  onChange: (language: PatientLanguage) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="language-switch" role="group" aria-label={t("language.choose")}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          aria-pressed={value === language}
          onClick={() => onChange(language)}
        >
          {t(`language.${language}`)}
        </button>
      ))}
    </div>
  );
}

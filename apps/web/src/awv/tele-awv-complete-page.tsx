import { useEffect, useState } from "react";
import { useLocation } from "react-router-dom";
import { useTranslation } from "react-i18next";
import type { PatientLanguage } from "@core-care/schema";
import { isPatientLanguage, setPatientLanguage } from "../i18n/i18n";
import { LanguageSwitch } from "../i18n/language-switch";
import { Logo } from "../ui/logo";
import type { CompletionState } from "./tele-awv-page";
import "../survey-ui/survey-ui.css";
import "./awv.css";

function completionOf(state: unknown): CompletionState | null {
  if (typeof state !== "object" || state === null) return null;
  const s = state as Record<string, unknown>;
  return typeof s.safetyAlert === "boolean" && typeof s.practice === "string" && isPatientLanguage(s.language)
    ? { safetyAlert: s.safetyAlert, practice: s.practice, language: s.language }
    : null;
}

/**
 * Where to turn now: shown whenever the submitted answers opened a safety alert (PHQ-9 item 9 above
 * 'not at all', or a severe total). The lifeline and the emergency number first, then that the practice
 * has been told.
 */
export function CrisisGuidance({ practice }: { practice: string }) {
  const { t } = useTranslation();
  return (
    <section className="awv-crisis" aria-labelledby="awv-crisis-title">
      <h2 id="awv-crisis-title">{t("crisis.title")}</h2>
      <p>
        <a href="tel:988">{t("crisis.lifeline")}</a>
      </p>
      <p>
        <a href="tel:911">{t("crisis.emergency")}</a>
      </p>
      <p>{practice !== "" ? t("crisis.toldPractice", { practice }) : t("crisis.toldCareTeam")}</p>
    </section>
  );
}

/** /auth/teleawv/complete: where the patient lands after submitting the questionnaire (SPEC 2). */
export default function TeleAwvCompletePage() {
  const { t } = useTranslation();
  const completion = completionOf(useLocation().state);
  const [language, setLanguage] = useState<PatientLanguage>(completion?.language ?? "en");
  useEffect(() => {
    setPatientLanguage(language);
    document.title = `${t("teleAwv.completeTitle")} · Core Care`;
  }, [language, t]);
  useEffect(() => () => setPatientLanguage("en"), []);
  return (
    <div className="awv-page">
      <header className="awv-header">
        <Logo size={40} />
        {completion && completion.practice !== "" ? (
          <p className="awv-practice">{t("teleAwv.from", { practice: completion.practice })}</p>
        ) : null}
        <LanguageSwitch value={language} onChange={setLanguage} />
      </header>
      <main className="awv-main awv-complete">
        <h1 className="awv-title">{t("teleAwv.completeTitle")}</h1>
        {completion?.safetyAlert ? <CrisisGuidance practice={completion.practice} /> : null}
        <p role="status">{t("teleAwv.completeText")}</p>
      </main>
    </div>
  );
}

import { useEffect } from "react";
import { Logo } from "../ui/logo";
import { TELE_AWV_COMPLETE_TEXT } from "./tele-awv-form";
import "./awv.css";

/** /auth/teleawv/complete: where the patient lands after submitting the questionnaire (SPEC 2). */
export default function TeleAwvCompletePage() {
  useEffect(() => {
    document.title = "Annual Wellness Visit complete · Core Care";
  }, []);
  return (
    <div className="awv-page">
      <header className="awv-header">
        <Logo size={40} />
      </header>
      <main className="awv-main awv-complete">
        <h1 className="awv-title">Annual Wellness Visit</h1>
        <p role="status">{TELE_AWV_COMPLETE_TEXT}</p>
      </main>
    </div>
  );
}

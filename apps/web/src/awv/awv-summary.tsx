import { useMemo } from "react";
import { summarizeAwv, type Answers } from "@core-care/survey-engine";
import { summaryRows } from "./awv-summary-rows";
import "./awv.css";

/** The clinician's printable summary of a submitted Tele-AWV questionnaire: scores and findings. */
export function AwvSummary({ answers, patientName }: { answers: Answers; patientName: string }) {
  const rows = useMemo(() => summaryRows(summarizeAwv(answers)), [answers]);
  return (
    <section className="card awv-summary" aria-labelledby="awv-summary-title">
      <div className="page-header">
        <h2 id="awv-summary-title">AWV summary</h2>
        <button type="button" className="button awv-no-print" onClick={() => window.print()}>
          Print summary
        </button>
      </div>
      <p className="hint">{patientName}</p>
      <dl aria-label="AWV summary">
        {rows.map((row) => (
          <div key={row.label} style={{ display: "contents" }}>
            <dt>{row.label}</dt>
            <dd className={row.flag ? "awv-flag" : undefined}>{row.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

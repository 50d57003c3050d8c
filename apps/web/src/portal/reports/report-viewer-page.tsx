import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Link, useParams } from "react-router-dom";
import type { Report } from "@core-care/schema";
import { api } from "../../api/client";
import { useMe, may } from "../../api/session";
import { loadReportData } from "../../designer/report-data";
import { reportDocument } from "../../designer/report-protocol";
import { ReportSandbox } from "../../designer/report-sandbox";
import { downloadText, fileNameOf } from "../../designer/survey-json";
import { LoadError, NOT_FOUND, useLoader } from "../../ui/load-state";
import { RecordNotFound } from "../../ui/not-found";
import { usePageTitle } from "../page-title";
import { DURATIONS } from "../results/duration-select";
import "../../designer/designer.css";

/** The period a report runs on: one of the duration filters (SPEC 3), or a range of days. */
type Period = "0" | "1" | "5" | "range";

/** Today's date (UTC, YYYY-MM-DD), the days the server counts in. */
function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Runs a report for staff at /reports/:reportId: pick a period, run it, read, print or save the output. */
export default function ReportViewerPage() {
  const { reportId = "" } = useParams();
  const me = useMe();
  const canEdit = may(me, "editReports");
  const [report, setReport] = useState<Report | null>(null);
  usePageTitle(report ? `Report: ${report.title}` : "Report");

  const load = useCallback(async () => {
    setReport(null);
    setReport(await api.get<Report>(`/api/reports/${encodeURIComponent(reportId)}`));
  }, [reportId]);
  const loading = useLoader(load);

  if (!report) {
    if (loading.failed === NOT_FOUND) {
      return <RecordNotFound what="Report" backTo="/reports" backLabel="Back to reports" />;
    }
    if (loading.failed !== null) return <LoadError what="The report" state={loading} />;
    return <div className="page-loading" aria-busy="true" />;
  }
  return <ReportViewer report={report} canEdit={canEdit} />;
}

function ReportViewer({ report, canEdit }: { report: Report; canEdit: boolean }) {
  const id = useId();
  const output = useRef<HTMLDivElement>(null);
  const sandbox = useRef<ReportSandbox | null>(null);
  const [period, setPeriod] = useState<Period>("1");
  const [from, setFrom] = useState(utcToday);
  const [to, setTo] = useState(utcToday);
  const [rangeError, setRangeError] = useState("");
  const [running, setRunning] = useState(false);
  const [html, setHtml] = useState<string | null>(null);
  const [ranFor, setRanFor] = useState("");
  const [runError, setRunError] = useState("");

  useEffect(() => {
    if (!output.current) return;
    const instance = new ReportSandbox(output.current);
    sandbox.current = instance;
    return () => instance.dispose();
  }, []);

  const periodInWords = () =>
    period === "range"
      ? from === to
        ? from
        : `${from} to ${to}`
      : (DURATIONS.find(([value]) => String(value) === period)?.[1] ?? "");

  const run = async () => {
    const box = sandbox.current;
    if (!box) return;
    if (period === "range" && (from === "" || to === "" || to < from)) {
      setRangeError(
        from === "" || to === ""
          ? "Choose the first and the last day."
          : "The last day must be on or after the first.",
      );
      return;
    }
    setRangeError("");
    setRunning(true);
    setRunError("");
    setHtml(null);
    try {
      const data =
        period === "range"
          ? await loadReportData(5, report.clinical, { from, to })
          : await loadReportData(period === "0" ? 0 : period === "1" ? 1 : 5, report.clinical);
      setHtml(await box.run(report.script, report.markup, data));
      setRanFor(periodInWords());
    } catch (error) {
      setRunError(error instanceof Error ? error.message : String(error));
    } finally {
      setRunning(false);
    }
  };

  return (
    <section className="report-viewer">
      <div className="page-header">
        <h1>{report.title}</h1>
        <div className="form-actions">
          {canEdit ? (
            <Link to={`/reports/${report.id}/edit`} className="button ghost">
              Edit report
            </Link>
          ) : null}
          <Link to="/reports" className="button ghost">
            All reports
          </Link>
        </div>
      </div>
      <form
        className="card"
        aria-labelledby={`${id}-period`}
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <h2 id={`${id}-period`}>Period</h2>
        <div className="toolbar">
          <div className="field">
            <label htmlFor={`${id}-duration`}>Results started</label>
            <select
              id={`${id}-duration`}
              value={period}
              onChange={(e) => setPeriod(e.target.value as Period)}
            >
              {DURATIONS.map(([value, label]) => (
                <option key={value} value={String(value)}>
                  {label}
                </option>
              ))}
              <option value="range">Between two dates</option>
            </select>
          </div>
          {period === "range" ? (
            <>
              <div className="field">
                <label htmlFor={`${id}-from`}>First day</label>
                <input
                  id={`${id}-from`}
                  type="date"
                  value={from}
                  max={to || undefined}
                  onChange={(e) => setFrom(e.target.value)}
                  aria-describedby={`${id}-range-error`}
                />
              </div>
              <div className="field">
                <label htmlFor={`${id}-to`}>Last day</label>
                <input
                  id={`${id}-to`}
                  type="date"
                  value={to}
                  min={from || undefined}
                  onChange={(e) => setTo(e.target.value)}
                  aria-describedby={`${id}-range-error`}
                />
              </div>
            </>
          ) : null}
          <button type="submit" className="button primary" disabled={running}>
            Run report
          </button>
        </div>
        <p id={`${id}-range-error`} className="form-error" role="alert">
          {rangeError}
        </p>
        <p className="hint">Days are counted in UTC, as the duration filters are.</p>
      </form>
      <section className="card" aria-labelledby={`${id}-output`}>
        <h2 id={`${id}-output`}>Output</h2>
        <div className="toolbar">
          <button
            type="button"
            className="button"
            disabled={html === null}
            onClick={() => sandbox.current?.print()}
          >
            Print
          </button>
          <button
            type="button"
            className="button"
            disabled={html === null}
            onClick={() =>
              html !== null &&
              downloadText(
                fileNameOf(`${report.title} ${ranFor}`, "html"),
                reportDocument(`${report.title} (${ranFor})`, html),
                "text/html",
              )
            }
          >
            Save as HTML
          </button>
        </div>
        <p className="designer-status" role="status">
          {running
            ? "Running..."
            : html !== null
              ? `Report for ${ranFor}.`
              : "Choose a period and run the report."}
        </p>
        {runError ? (
          <p className="form-error" role="alert">
            {runError}
          </p>
        ) : null}
        <div ref={output} data-testid="report-output" />
      </section>
    </section>
  );
}

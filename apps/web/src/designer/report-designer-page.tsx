import { useEffect, useId, useRef, useState } from "react";
import { Link, useParams } from "react-router-dom";
import type { Report } from "@core-care/schema";
import { DEFAULTS, objectId } from "@core-care/survey-engine";
import { DurationSelect } from "../portal/results/duration-select";
import { DesignerPageFrame, SaveState, type DesignerView } from "./designer-page-frame";
import { loadReportData, withoutProtectedFields } from "./report-data";
import { reportDocument } from "./report-protocol";
import { REPORT_TIMEOUT_MS, ReportSandbox } from "./report-sandbox";
import { downloadText, fileNameOf } from "./survey-json";
import { savedFields } from "./remote-save";
import { VersionHistory } from "./version-history";
import "./designer.css";

const SAMPLE_SCRIPT = `// data is { results: [...] }: the mock below, or the practice's survey results.
const results = data.results || [];
return {
  total: results.length,
  submitted: results.filter((r) => r.isSubmitted).length,
  results,
};`;

const SAMPLE_MARKUP = `<h1>Survey results</h1>
<p>{{submitted}} of {{total}} results submitted.</p>
<table>
  <thead><tr><th>Survey</th><th>Submitted</th></tr></thead>
  <tbody>
    {{#each results}}<tr><td>{{surveyTitle}}</td><td>{{#if isSubmitted}}Yes{{else}}No{{/if}}</td></tr>{{/each}}
  </tbody>
</table>`;

const SAMPLE_MOCK = {
  results: [
    {
      id: "000000000000000000000001",
      surveyTitle: "Sample survey",
      surveyVersion: 1,
      isSubmitted: true,
      createdAt: "2026-01-05T10:00:00.000Z",
      answers: { firstName: "Sample", weight: 70 },
    },
  ],
};

/** A new report with the spec's default title and a working sample script, markup and mock. */
export function createReport(): Report {
  return {
    id: objectId(),
    title: DEFAULTS.reportTitle,
    script: SAMPLE_SCRIPT,
    markup: SAMPLE_MARKUP,
    mock: SAMPLE_MOCK,
    clinical: false,
    version: 0,
  };
}

/** The report designer at /reports/:reportId/edit (SPEC 1, 3). */
export default function ReportDesignerPage() {
  const { reportId = "" } = useParams();
  return (
    <DesignerPageFrame entity="report" id={reportId}>
      {(view) => <ReportDesigner {...view} />}
    </DesignerPageFrame>
  );
}

function ReportDesigner(view: DesignerView<Report>) {
  const { document: report, readOnly, onEdit } = view;
  const id = useId();
  const output = useRef<HTMLDivElement>(null);
  const sandbox = useRef<ReportSandbox | null>(null);
  const [mockText, setMockText] = useState(() => JSON.stringify(report.mock, null, 2));
  const [mockError, setMockError] = useState("");
  const [duration, setDuration] = useState<0 | 1 | 5>(5);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<{ html: string; source: string } | null>(null);
  const [runError, setRunError] = useState("");

  useEffect(() => {
    if (!output.current) return;
    const instance = new ReportSandbox(output.current);
    sandbox.current = instance;
    return () => instance.dispose();
  }, []);

  const run = async (source: string, data: () => Promise<unknown>) => {
    const box = sandbox.current;
    if (!box) return;
    setRunning(true);
    setRunError("");
    setResult(null);
    try {
      const html = await box.run(report.script, report.markup, await data());
      setResult({ html, source });
    } catch (error) {
      setRunError(error instanceof Error ? error.message : String(error));
    } finally {
      setRunning(false);
    }
  };

  const preview = () =>
    run("the mock data", async () => withoutProtectedFields(report.mock, undefined, report.clinical));
  const runOnResults = () =>
    run("the practice's survey results", () => loadReportData(duration, report.clinical));

  return (
    <section className="designer">
      <div className="page-header">
        <h1>Report designer</h1>
        <div className="designer-actions">
          <SaveState view={view} />
          <Link to="/reports" className="button ghost">
            All reports
          </Link>
        </div>
      </div>
      <div className="designer-columns">
        <fieldset className="designer-editor" disabled={readOnly}>
          <legend className="visually-hidden">Report</legend>
          <section className="card" aria-labelledby={`${id}-settings`}>
            <h2 id={`${id}-settings`}>Report</h2>
            <div className="field">
              <label htmlFor={`${id}-title`}>Report title</label>
              <input
                id={`${id}-title`}
                type="text"
                value={report.title}
                onChange={(e) => onEdit((r) => ({ ...r, title: e.target.value }))}
              />
            </div>
            <label className="designer-check">
              <input
                type="checkbox"
                checked={report.clinical}
                onChange={(e) => onEdit((r) => ({ ...r, clinical: e.target.checked }))}
              />{" "}
              Clinical report: its data keeps protected fields (names, contact details, date of birth, pii
              questions)
            </label>
            <div className="field">
              <label htmlFor={`${id}-script`}>Script</label>
              <textarea
                id={`${id}-script`}
                className="code"
                rows={10}
                spellCheck={false}
                value={report.script}
                onChange={(e) => onEdit((r) => ({ ...r, script: e.target.value }))}
                aria-describedby={`${id}-script-help`}
              />
              <p id={`${id}-script-help`} className="hint">
                The body of a function of <code>data</code>; what it returns fills the markup. It runs in a
                sandbox with no network, no cookies and a {REPORT_TIMEOUT_MS / 1000}-second limit.
              </p>
            </div>
            <div className="field">
              <label htmlFor={`${id}-markup`}>Markup</label>
              <textarea
                id={`${id}-markup`}
                className="code"
                rows={10}
                spellCheck={false}
                value={report.markup}
                onChange={(e) => onEdit((r) => ({ ...r, markup: e.target.value }))}
                aria-describedby={`${id}-markup-help`}
              />
              <p id={`${id}-markup-help`} className="hint">
                HTML with <code>{"{{name}}"}</code>, <code>{"{{#each list}}…{{/each}}"}</code> and{" "}
                <code>{"{{#if name}}…{{else}}…{{/if}}"}</code>; values are always shown as text.
              </p>
            </div>
            <div className="field">
              <label htmlFor={`${id}-mock`}>Mock data (JSON)</label>
              <textarea
                id={`${id}-mock`}
                className="code"
                rows={10}
                spellCheck={false}
                value={mockText}
                onChange={(e) => {
                  setMockText(e.target.value);
                  try {
                    const mock = JSON.parse(e.target.value) as unknown;
                    setMockError("");
                    onEdit((r) => ({ ...r, mock }));
                  } catch (error) {
                    setMockError(`Not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
                  }
                }}
                aria-describedby={`${id}-mock-error`}
              />
              <p id={`${id}-mock-error`} className="form-error" role="status">
                {mockError}
              </p>
            </div>
          </section>
        </fieldset>
        <div className="designer-side">
          <section className="card" aria-labelledby={`${id}-output`}>
            <h2 id={`${id}-output`}>Output</h2>
            <div className="toolbar">
              <button type="button" className="button" disabled={running} onClick={() => void preview()}>
                Preview on mock
              </button>
              <DurationSelect value={duration} onChange={setDuration} />
              <button type="button" className="button" disabled={running} onClick={() => void runOnResults()}>
                Run on results
              </button>
            </div>
            <div className="toolbar">
              <button
                type="button"
                className="button small"
                disabled={!result}
                onClick={() =>
                  result &&
                  downloadText(
                    fileNameOf(report.title, "html"),
                    reportDocument(report.title, result.html),
                    "text/html",
                  )
                }
              >
                Download HTML
              </button>
              <button
                type="button"
                className="button small"
                disabled={!result}
                onClick={() => sandbox.current?.print()}
              >
                Download PDF
              </button>
            </div>
            <p className="designer-status" role="status">
              {running ? "Running..." : result ? `Rendered from ${result.source}.` : ""}
            </p>
            {runError ? (
              <p className="form-error" role="alert">
                {runError}
              </p>
            ) : null}
            <div ref={output} data-testid="report-output" />
          </section>
          <VersionHistory
            entity="report"
            id={report.id}
            onRestore={
              readOnly
                ? undefined
                : (restored) => {
                    setMockText(JSON.stringify(restored.mock, null, 2));
                    onEdit((r) => ({ ...savedFields("report", restored), id: r.id, version: r.version }));
                  }
            }
          />
        </div>
      </div>
    </section>
  );
}

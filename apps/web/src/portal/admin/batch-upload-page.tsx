import { useEffect, useId, useState } from "react";
import type { BatchUploadResponse } from "@core-care/schema";
import { api } from "../../api/client";
import { useMe, may } from "../../api/session";
import { type ListResponse } from "../../api/types";
import { FieldMessage, formFailure, invalidProps, NO_FAILURE, type FormFailure } from "../../ui/field-errors";
import { usePageTitle } from "../page-title";

type Format = "csv" | "json";

interface InterfaceChoice {
  id: string;
  name: string;
  type: string;
}

const FIELDS = ["format", "content", "interfaceId"] as const;

/** The format a file's name says, if it says one. */
function formatOf(fileName: string): Format | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".json")) return "json";
  return null;
}

/**
 * Batch upload for admins (POST /api/surveyresults/batchUpload): results from another system, a CSV or
 * JSON file of one result a row, stored as submitted and optionally sent on to an interface; then the
 * row report: how many were taken and, for each row refused, which field and why.
 */
export default function BatchUploadPage() {
  usePageTitle("Batch upload");
  const id = useId();
  const me = useMe();
  const isAdmin = may(me, "uploadBatch");
  const [format, setFormat] = useState<Format>("csv");
  const [content, setContent] = useState("");
  const [fileName, setFileName] = useState("");
  const [interfaceId, setInterfaceId] = useState("");
  const [interfaces, setInterfaces] = useState<InterfaceChoice[]>([]);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [report, setReport] = useState<(BatchUploadResponse & { rows: string }) | null>(null);

  useEffect(() => {
    if (!isAdmin) return;
    let live = true;
    api
      .get<ListResponse<InterfaceChoice> | InterfaceChoice[]>("/api/interfaces", { handleErrors: true })
      .then(
        (list) => live && setInterfaces(Array.isArray(list) ? list : list.items),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [isAdmin]);

  if (!isAdmin) {
    return (
      <section>
        <div className="page-header">
          <h1>Batch upload</h1>
        </div>
        <p className="notice">Only administrators can upload results in bulk.</p>
      </section>
    );
  }

  const upload = async () => {
    setFailure(NO_FAILURE);
    setReport(null);
    setBusy(true);
    try {
      const answer = await api.post<BatchUploadResponse>(
        "/api/surveyresults/batchUpload",
        { format, content, ...(interfaceId === "" ? {} : { interfaceId }) },
        { handleErrors: true },
      );
      setReport({ ...answer, rows: fileName || "the pasted rows" });
    } catch (error) {
      setFailure(formFailure(error, FIELDS));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="batch-upload">
      <div className="page-header">
        <h1>Batch upload</h1>
      </div>
      <form
        className="card"
        noValidate
        aria-labelledby={`${id}-title`}
        onSubmit={(event) => {
          event.preventDefault();
          void upload();
        }}
      >
        <h2 id={`${id}-title`}>Results to import</h2>
        <p className="hint" id={`${id}-help`}>
          One result a row, stored as submitted. CSV: a header row naming <code>externalId</code>,{" "}
          <code>surveyId</code> and <code>patientId</code> or <code>mrn</code>; every other column is an
          answer named by its field (dotted names such as <code>pain.hadPain</code> nest). JSON: an array of{" "}
          <code>{"{ externalId, surveyId, patientId or mrn, answers }"}</code>. The same external id uploaded
          again updates its result rather than adding one. At most 5,000 rows.
        </p>
        {failure.form ? (
          <p className="form-error" role="alert">
            {failure.form}
          </p>
        ) : null}
        <div className="form-grid">
          <div className="field">
            <label htmlFor={`${id}-file`}>File</label>
            <input
              id={`${id}-file`}
              type="file"
              accept=".csv,.json,text/csv,application/json"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (!file) return;
                setFileName(file.name);
                const guessed = formatOf(file.name);
                if (guessed) setFormat(guessed);
                void file.text().then(setContent);
              }}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-format`}>Format</label>
            <select
              id={`${id}-format`}
              value={format}
              onChange={(event) => setFormat(event.target.value === "json" ? "json" : "csv")}
              {...invalidProps(`${id}-format`, failure.fields.format)}
            >
              <option value="csv">CSV</option>
              <option value="json">JSON</option>
            </select>
            <FieldMessage id={`${id}-format`} message={failure.fields.format} />
          </div>
          <div className="field span-2">
            <label htmlFor={`${id}-content`}>Content</label>
            <textarea
              id={`${id}-content`}
              className="code"
              rows={8}
              spellCheck={false}
              value={content}
              onChange={(event) => {
                setContent(event.target.value);
                setFileName("");
              }}
              {...invalidProps(`${id}-content`, failure.fields.content, `${id}-help`)}
            />
            <FieldMessage id={`${id}-content`} message={failure.fields.content} />
          </div>
          <div className="field span-2">
            <label htmlFor={`${id}-interface`}>Then send each result to</label>
            <select
              id={`${id}-interface`}
              value={interfaceId}
              onChange={(event) => setInterfaceId(event.target.value)}
              {...invalidProps(`${id}-interface`, failure.fields.interfaceId)}
            >
              <option value="">Do not send</option>
              {interfaces.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.name}
                </option>
              ))}
            </select>
            <FieldMessage id={`${id}-interface`} message={failure.fields.interfaceId} />
          </div>
        </div>
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy || content.trim() === ""}>
            {busy ? "Uploading..." : "Upload"}
          </button>
        </div>
      </form>
      {report ? <RowReport report={report} /> : null}
    </section>
  );
}

function RowReport({ report }: { report: BatchUploadResponse & { rows: string } }) {
  const id = useId();
  const total = report.accepted + new Set(report.rejected.map((r) => r.row)).size;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Row report</h2>
      <p role="status">
        {`${report.accepted} of ${total} ${total === 1 ? "row" : "rows"} of ${report.rows} imported` +
          (report.rejected.length === 0 ? "." : `; ${total - report.accepted} refused.`)}
      </p>
      {report.rejected.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption>Rows refused</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Field</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {report.rejected.map((rejection) => (
                <tr key={`${rejection.row}-${rejection.field}`}>
                  <td>{rejection.row}</td>
                  <td>
                    <code>{rejection.field}</code>
                  </td>
                  <td>{rejection.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

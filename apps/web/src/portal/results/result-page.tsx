import { useCallback, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import type { Survey } from "@core-care/schema";
import { api } from "../../api/client";
import type { InterfaceType, SurveyResult } from "../../api/types";
import { ConfirmModal, RemoveRecordModal, type ConfirmChoice } from "../../ui/confirm-modal";
import { formatDateTime } from "../format";
import { usePageTitle } from "../page-title";
import { answerRows } from "./answer-rows";
import { DeliveryLog } from "./delivery-log";
import { AwvSummary } from "../../awv/awv-summary";
import { SafetyAlerts } from "../../awv/safety-alerts";
import { TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import { may, useMe } from "../../api/session";
import { LoadError, NOT_FOUND, useLoader } from "../../ui/load-state";
import { RecordNotFound } from "../../ui/not-found";

const SEND_PATHS: Record<InterfaceType, string> = {
  "hl7-mllp": "sendhl7",
  "cda-mllp": "sendCDA",
  "cda-sftp": "sendCDA",
  sftp: "sftpout",
  "fhir-http": "sendfhir",
};

/** One survey result, read-only, with its printable view, send and remove. */
export default function ResultPage() {
  // Removing a clinical record is an admin act unless the practice lets its users (kept, restorable).
  const mayRemove = may(useMe(), "removeResults");
  usePageTitle("Survey result");
  const { resultId } = useParams();
  const navigate = useNavigate();
  const [result, setResult] = useState<SurveyResult | null>(null);
  const [survey, setSurvey] = useState<Survey | null>(null);
  const [modal, setModal] = useState<"remove" | "send" | null>(null);
  const [notice, setNotice] = useState("");
  const [deliveriesKey, setDeliveriesKey] = useState(0);

  // The result on screen; an answer for one the page has since left is dropped.
  const shown = useRef(resultId);
  shown.current = resultId;
  const loadResult = useCallback(async () => {
    setResult(null);
    const r = await api.get<SurveyResult>(`/api/surveyresults/${resultId}`);
    if (shown.current !== resultId) return;
    setResult(r);
    api
      .get<Survey>(`/api/surveys/${r.surveyId}/versions/${r.surveyVersion}`, { handleErrors: true })
      .then((s) => shown.current === resultId && setSurvey(s))
      .catch(() => undefined);
  }, [resultId]);
  const loading = useLoader(loadResult);

  if (!result) {
    if (loading.failed === NOT_FOUND) {
      return <RecordNotFound what="Survey result" backTo="/results" backLabel="Back to survey results" />;
    }
    if (loading.failed !== null) return <LoadError what="The survey result" state={loading} />;
    return <div className="page-loading" aria-busy="true" />;
  }

  async function remove() {
    setModal(null);
    await api.del(`/api/surveyresults/${result?.id}`);
    await navigate("/results");
  }

  async function send(choice: ConfirmChoice) {
    setModal(null);
    const list = await api.get<
      { items: { id: string; type: InterfaceType }[] } | { id: string; type: InterfaceType }[]
    >("/api/interfaces");
    const items = Array.isArray(list) ? list : list.items;
    const target = items.find((i) => i.id === choice.interfaceId);
    if (!target) return;
    await api.post(`/api/surveyresults/${result?.id}/${SEND_PATHS[target.type]}`, {
      interfaceId: target.id,
      locationId: choice.locationId,
    });
    setNotice("The result is queued for delivery.");
    setDeliveriesKey((k) => k + 1);
  }

  const rows = answerRows(result.answers, survey);
  return (
    <section>
      <div className="page-header">
        <h1>{result.surveyTitle}</h1>
        <div className="form-actions">
          <Link className="button" to={`/results/${result.id}/print`}>
            Print
          </Link>
          <Link className="button" to={`/results/${result.id}/plan`}>
            Prevention plan
          </Link>
          <button type="button" className="button" onClick={() => setModal("send")}>
            Send
          </button>
          {mayRemove && (
            <button type="button" className="button danger" onClick={() => setModal("remove")}>
              Remove
            </button>
          )}
        </div>
      </div>
      <SafetyAlerts resultId={result.id} />
      {notice && (
        <p className="notice success" role="status">
          {notice}
        </p>
      )}
      <div className="card">
        <dl className="answers">
          <dt>Patient</dt>
          <dd>
            <Link to={`/patients/${result.patientId}`}>{result.patientName}</Link>
          </dd>
          <dt>Status</dt>
          <dd>{result.isSubmitted ? "Submitted" : "In progress"}</dd>
          <dt>Started</dt>
          <dd>{formatDateTime(result.createdAt)}</dd>
          <dt>Last saved</dt>
          <dd>{formatDateTime(result.updatedAt)}</dd>
          <dt>Survey version</dt>
          <dd>{result.surveyVersion}</dd>
        </dl>
      </div>
      {result.surveyId === TELE_AWV_SURVEY_ID && result.isSubmitted && (
        <AwvSummary answers={result.answers} patientName={result.patientName} />
      )}
      <div className="card">
        <h2>Answers</h2>
        {rows.length === 0 ? (
          <p className="hint">No answers were given.</p>
        ) : (
          <dl className="answers" aria-label="Answers">
            {rows.map((row) => (
              <div key={row.path} style={{ display: "contents" }}>
                <dt>{row.question}</dt>
                <dd>{row.answer}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
      <DeliveryLog resultId={result.id} refreshKey={deliveriesKey} />
      {modal === "remove" && (
        <RemoveRecordModal
          record={`${result.surveyTitle} of ${result.patientName}, started ${formatDateTime(result.createdAt)}`}
          onClose={() => setModal(null)}
          onConfirm={() => void remove().catch(() => undefined)}
        />
      )}
      {modal === "send" && (
        <ConfirmModal
          title="Send result"
          patientName={result.patientName}
          withLocation
          interfaceType={["hl7-mllp", "cda-mllp", "cda-sftp", "sftp", "fhir-http"]}
          buttons="confirm-cancel"
          onClose={() => setModal(null)}
          onConfirm={(choice) => void send(choice).catch(() => undefined)}
        />
      )}
    </section>
  );
}

import { useCallback, useRef, useState } from "react";
import { useParams } from "react-router-dom";
import { api } from "../../api/client";
import { useMe } from "../../api/session";
import type { Patient } from "../../api/types";
import { LoadError, NOT_FOUND, useLoader } from "../../ui/load-state";
import { RecordNotFound } from "../../ui/not-found";
import { usePageTitle } from "../page-title";
import {
  loadPrintedResult,
  PatientIdentifiers,
  PrintedResultSection,
  PrintFrame,
  type PrintedResult,
} from "./print-parts";

/** A survey result as it prints (/results/:resultId/print): practice, patient, every answer under its question. */
export default function ResultPrintPage() {
  const { resultId = "" } = useParams();
  const me = useMe();
  usePageTitle("Print survey result");
  const [printed, setPrinted] = useState<{ result: PrintedResult; patient: Patient | null } | null>(null);
  const shown = useRef(resultId);
  shown.current = resultId;

  const load = useCallback(async () => {
    setPrinted(null);
    const result = await loadPrintedResult(resultId);
    const patient = await api
      .get<Patient>(`/api/patients/${encodeURIComponent(result.result.patientId)}`, { handleErrors: true })
      .catch(() => null);
    if (shown.current === resultId) setPrinted({ result, patient });
  }, [resultId]);
  const loading = useLoader(load);

  if (!printed) {
    if (loading.failed === NOT_FOUND) {
      return <RecordNotFound what="Survey result" backTo="/results" backLabel="Back to survey results" />;
    }
    if (loading.failed !== null) return <LoadError what="The survey result" state={loading} />;
    return <div className="page-loading" aria-busy="true" />;
  }
  const { result, patient } = printed;
  return (
    <PrintFrame
      practice={me?.tenant.name ?? ""}
      title={`Survey result: ${result.result.surveyTitle}`}
      back={`/results/${result.result.id}`}
      backLabel="Back to the result"
    >
      {patient ? (
        <PatientIdentifiers patient={patient} />
      ) : (
        <dl className="print-identifiers" aria-label="Patient">
          <dt>Patient</dt>
          <dd>{result.result.patientName}</dd>
        </dl>
      )}
      <PrintedResultSection printed={result} />
    </PrintFrame>
  );
}

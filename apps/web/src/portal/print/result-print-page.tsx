import { useParams } from "react-router-dom";
import { api } from "../../api/client";
import { useMe } from "../../api/session";
import type { Patient } from "../../api/types";
import { usePageTitle } from "../page-title";
import {
  loadPrintedResult,
  PatientIdentifiers,
  PrintedResultSection,
  PrintFrame,
  PrintPending,
  usePrinted,
  type PrintedResult,
} from "./print-parts";

/** A result and its patient, as they print (the patient's name alone when the patient cannot be read). */
async function readResult(resultId: string): Promise<{ result: PrintedResult; patient: Patient | null }> {
  const result = await loadPrintedResult(resultId);
  const patient = await api
    .get<Patient>(`/api/patients/${encodeURIComponent(result.result.patientId)}`, { handleErrors: true })
    .catch(() => null);
  return { result, patient };
}

/** A survey result as it prints (/results/:resultId/print): practice, patient, every answer under its question. */
export default function ResultPrintPage() {
  const { resultId = "" } = useParams();
  const me = useMe();
  usePageTitle("Print survey result");
  const { printed, loading } = usePrinted(resultId, readResult);
  if (!printed) {
    return (
      <PrintPending
        loading={loading}
        what="Survey result"
        backTo="/results"
        backLabel="Back to survey results"
      />
    );
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

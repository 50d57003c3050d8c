import { useParams } from "react-router-dom";
import { PAGE_SIZE } from "@core-care/schema";
import { api } from "../../api/client";
import { useMe } from "../../api/session";
import type { ListResponse, Patient, SurveyResultSummary } from "../../api/types";
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

/** Results read at once while the patient's printout is put together. */
const PARALLEL_READS = 4;

/** Every result of a patient, newest first, each with the survey version it was taken on. */
async function loadPatientResults(patientId: string): Promise<PrintedResult[]> {
  const summaries: SurveyResultSummary[] = [];
  for (let page = 1; ; page++) {
    const list = await api.get<ListResponse<SurveyResultSummary>>("/api/surveyresults", {
      query: { duration: 5, patientId, page },
    });
    // A page that repeats what came before ends the read rather than looping on it.
    const fresh = list.items.filter((item) => !summaries.some((seen) => seen.id === item.id));
    summaries.push(...fresh);
    if (fresh.length < PAGE_SIZE || summaries.length >= list.total) break;
  }
  const printed: PrintedResult[] = new Array<PrintedResult>(summaries.length);
  let next = 0;
  const worker = async () => {
    while (next < summaries.length) {
      const index = next++;
      const summary = summaries[index];
      if (summary) printed[index] = await loadPrintedResult(summary.id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, summaries.length) }, worker));
  return printed;
}

/** A patient and every result of theirs, as they print. */
async function readPatient(patientId: string): Promise<{ patient: Patient; results: PrintedResult[] }> {
  const patient = await api.get<Patient>(`/api/patients/${encodeURIComponent(patientId)}`);
  return { patient, results: await loadPatientResults(patient.id) };
}

/** A patient as it prints (/patients/:patientId/print): practice, identifiers and every result's answers. */
export default function PatientPrintPage() {
  const { patientId = "" } = useParams();
  const me = useMe();
  usePageTitle("Print patient");
  const { printed, loading } = usePrinted(patientId, readPatient);
  if (!printed) {
    return <PrintPending loading={loading} what="Patient" backTo="/patients" backLabel="Back to patients" />;
  }
  const { patient, results } = printed;
  return (
    <PrintFrame
      practice={me?.tenant.name ?? ""}
      title={`Patient record: ${patient.firstName} ${patient.lastName}`}
      back={`/patients/${patient.id}`}
      backLabel="Back to the patient"
    >
      <PatientIdentifiers patient={patient} full />
      <h2>Survey results</h2>
      {results.length === 0 ? (
        <p>No survey results.</p>
      ) : (
        results.map((result) => (
          <PrintedResultSection key={result.result.id} printed={result} headingLevel={3} />
        ))
      )}
    </PrintFrame>
  );
}

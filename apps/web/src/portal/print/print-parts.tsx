import { useCallback, useRef, useState } from "react";
import { Link } from "react-router-dom";
import type { Survey } from "@core-care/schema";
import { TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import { api } from "../../api/client";
import type { Patient, SurveyResult } from "../../api/types";
import { AwvSummary } from "../../awv/awv-summary";
import { LoadError, NOT_FOUND, useLoader, type LoadState } from "../../ui/load-state";
import { RecordNotFound } from "../../ui/not-found";
import { formatDateTime } from "../format";
import { answerRows } from "../results/answer-rows";
import "./print.css";

const SEX_WORDS: Record<string, string> = { F: "Female", M: "Male", U: "Unknown" };

/** A result with the survey version it was taken on (null when that version cannot be read). */
export interface PrintedResult {
  result: SurveyResult;
  survey: Survey | null;
}

/** Reads a result and the survey version it was taken on, for printing its answers under their questions. */
export async function loadPrintedResult(id: string): Promise<PrintedResult> {
  const result = await api.get<SurveyResult>(`/api/surveyresults/${encodeURIComponent(id)}`);
  const survey = await api
    .get<Survey>(`/api/surveys/${encodeURIComponent(result.surveyId)}/versions/${result.surveyVersion}`, {
      handleErrors: true,
    })
    .catch(() => null);
  return { result, survey };
}

/** The printed page's frame: Print and Back above, the practice's name and the document's title on top. */
export function PrintFrame({
  practice,
  title,
  back,
  backLabel,
  children,
}: {
  practice: string;
  title: string;
  back: string;
  backLabel: string;
  children: React.ReactNode;
}) {
  return (
    <article className="print-view">
      <div className="print-actions toolbar">
        <button type="button" className="button primary" onClick={() => window.print()}>
          Print
        </button>
        <Link to={back} className="button ghost">
          {backLabel}
        </Link>
        <p className="hint">To keep a PDF, choose "Save as PDF" as the printer.</p>
      </div>
      <header className="print-header">
        <p className="print-practice">{practice}</p>
        <h1>{title}</h1>
      </header>
      {children}
    </article>
  );
}

/** The patient's identifiers, as a clinician checks them before reading on. */
export function PatientIdentifiers({ patient, full = false }: { patient: Patient; full?: boolean }) {
  const address = patient.address
    ? [patient.address.street, patient.address.city, `${patient.address.state} ${patient.address.zip}`]
        .filter((part) => part.trim() !== "")
        .join(", ")
    : "";
  return (
    <dl className="print-identifiers" aria-label="Patient">
      <dt>Patient</dt>
      <dd>{`${patient.lastName}, ${patient.firstName}`}</dd>
      <dt>MRN</dt>
      <dd>{patient.mrn}</dd>
      <dt>Date of birth</dt>
      <dd>{patient.dob}</dd>
      <dt>Sex</dt>
      <dd>{SEX_WORDS[patient.sex] ?? patient.sex}</dd>
      {full && patient.phone ? (
        <>
          <dt>Phone</dt>
          <dd>{patient.phone}</dd>
        </>
      ) : null}
      {full && patient.email ? (
        <>
          <dt>E-mail</dt>
          <dd>{patient.email}</dd>
        </>
      ) : null}
      {full && address ? (
        <>
          <dt>Address</dt>
          <dd>{address}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** One result: its survey, status and times, then every answer under its question, labelled. */
export function PrintedResultSection({
  printed,
  headingLevel = 2,
}: {
  printed: PrintedResult;
  headingLevel?: 2 | 3;
}) {
  const { result, survey } = printed;
  const rows = answerRows(result.answers, survey);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const Sub = headingLevel === 2 ? "h3" : "h4";
  return (
    <section
      className="print-result"
      aria-label={`${result.surveyTitle}, started ${formatDateTime(result.createdAt)}`}
    >
      <Heading>{result.surveyTitle}</Heading>
      <dl className="print-identifiers">
        <dt>Status</dt>
        <dd>{result.isSubmitted ? "Submitted" : "In progress"}</dd>
        <dt>Started</dt>
        <dd>{formatDateTime(result.createdAt)}</dd>
        <dt>Last saved</dt>
        <dd>{formatDateTime(result.updatedAt)}</dd>
        <dt>Survey version</dt>
        <dd>{result.surveyVersion}</dd>
      </dl>
      {result.surveyId === TELE_AWV_SURVEY_ID && result.isSubmitted ? (
        <AwvSummary answers={result.answers} patientName={result.patientName} />
      ) : null}
      <Sub>Answers</Sub>
      {rows.length === 0 ? (
        <p>No answers were given.</p>
      ) : (
        <dl className="print-answers">
          {rows.map((row) => (
            <div key={row.path}>
              <dt>{row.question}</dt>
              <dd>{row.answer}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

/**
 * What a print page prints: `read(id)` for the record of `id`, null while it loads or after it failed
 * (then `loading` says why). A read that ends after the page has moved to another record is dropped.
 */
export function usePrinted<T>(
  id: string,
  read: (id: string) => Promise<T>,
): { printed: T | null; loading: LoadState } {
  const [printed, setPrinted] = useState<T | null>(null);
  const shown = useRef(id);
  shown.current = id;
  const load = useCallback(async () => {
    setPrinted(null);
    const value = await read(id);
    if (shown.current === id) setPrinted(value);
  }, [id, read]);
  return { printed, loading: useLoader(load) };
}

/** What a print page shows until its record is there: not found, the failure with Retry, or loading. */
export function PrintPending({
  loading,
  what,
  backTo,
  backLabel,
}: {
  loading: LoadState;
  /** The record, as a heading names it ("Patient"). */
  what: string;
  backTo: string;
  backLabel: string;
}) {
  if (loading.failed === NOT_FOUND) {
    return <RecordNotFound what={what} backTo={backTo} backLabel={backLabel} />;
  }
  if (loading.failed !== null) return <LoadError what={`The ${what.toLowerCase()}`} state={loading} />;
  return <div className="page-loading" aria-busy="true" />;
}

import { PROTECTED_FIELD_NAMES, withoutFields } from "@core-care/survey-engine";
import { api } from "../api/client";
import type { SurveyResult } from "../api/types";

/** Keys of a result summary that name the patient, removed like the spec's protected fields. */
export const PATIENT_KEYS: readonly string[] = ["patientName"];

/**
 * A copy of report data without protected health information: every protected field path (SPEC 3:
 * the spec's names plus questions flagged pii, given in `fields`) removed wherever it occurs, at any
 * depth, and the patient's name of result summaries. A clinical report gets the data unchanged.
 */
export function withoutProtectedFields(
  data: unknown,
  fields: readonly string[] = PROTECTED_FIELD_NAMES,
  clinical = false,
): unknown {
  if (clinical) return data;
  return withoutFields(data, [...fields, ...PATIENT_KEYS]);
}

/** A survey result as a report script receives it. */
export type ReportResult = SurveyResult;

/** A line of the report stream (GET /api/surveyresults/report, docs/api.md). */
type ReportLine = { type: "result"; result: ReportResult } | { type: "end"; count: number; duration: string };

function isReportLine(value: unknown): value is ReportLine {
  if (typeof value !== "object" || value === null) return false;
  const line = value as Partial<Record<string, unknown>>;
  return (
    (line.type === "result" && typeof line.result === "object" && line.result !== null) ||
    (line.type === "end" && typeof line.count === "number")
  );
}

/**
 * The tenant's survey results of a duration (SPEC 3: 0 Since Yesterday, 1 Today, 5 All) with their
 * answers (narrowed to the days `range` names, both included), as report data `{ duration, from?, to?,
 * results }`, in one streamed call: the server removes the
 * protected fields (the spec's names plus the pii questions of the survey version each result was
 * taken on) and the patient's name unless the report is clinical. A stream that ends before its last
 * line is refused rather than reported on as if it were whole.
 */
export async function loadReportData(
  duration: 0 | 1 | 5,
  clinical: boolean,
  range: { from?: string; to?: string } = {},
): Promise<unknown> {
  const results: ReportResult[] = [];
  let count: number | null = null;
  await api.lines(
    "/api/surveyresults/report",
    (line) => {
      if (!isReportLine(line)) return;
      if (line.type === "result") results.push(line.result);
      else count = line.count;
    },
    { query: { duration, clinical, ...range } },
  );
  if (count !== results.length) {
    throw new Error("The survey results arrived incomplete. Please run the report again.");
  }
  return { duration: DURATION_LABELS[duration], ...range, results };
}

/** The duration filters' labels (SPEC 3). */
export const DURATION_LABELS: Record<0 | 1 | 5, string> = { 0: "Since Yesterday", 1: "Today", 5: "All" };

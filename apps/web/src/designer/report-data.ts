import { PROTECTED_FIELD_NAMES, protectedFields, type Survey } from "@core-care/survey-engine";
import { api } from "../api/client";
import type { ListResponse, SurveyResult, SurveyResultSummary } from "../api/types";

/** Keys of a result summary that name the patient, removed like the spec's protected fields. */
export const PATIENT_KEYS: readonly string[] = ["patientName"];

function deletePath(target: Record<string, unknown>, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in target)) return;
  if (rest.length === 0) {
    delete target[head];
    return;
  }
  const next = target[head];
  if (typeof next === "object" && next !== null && !Array.isArray(next)) {
    deletePath(next as Record<string, unknown>, rest);
  }
}

function strip(value: unknown, paths: readonly string[][]): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, paths));
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = strip(item, paths);
  for (const path of paths) deletePath(copy, path);
  return copy;
}

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
  const paths = [...new Set([...fields, ...PATIENT_KEYS])].map((field) => field.split("."));
  return strip(data, paths);
}

/** A survey result as a report script receives it. */
export type ReportResult = SurveyResult;

/** Page size of the results list (docs/api.md). */
const PAGE_SIZE = 200;

/**
 * The tenant's survey results of a duration (SPEC 3: 0 Since Yesterday, 1 Today, 5 All) with their
 * answers, as report data `{ duration, results }`; protected fields (the spec's names plus the pii
 * questions of the survey version each result was taken on) removed unless the report is clinical.
 */
export async function loadReportData(duration: 0 | 1 | 5, clinical: boolean): Promise<unknown> {
  const summaries: SurveyResultSummary[] = [];
  for (let page = 1; ; page++) {
    const list = await api.get<ListResponse<SurveyResultSummary>>("/api/surveyresults", {
      query: { duration, page },
    });
    summaries.push(...list.items);
    if (list.items.length < PAGE_SIZE || summaries.length >= list.total) break;
  }
  const results = await Promise.all(
    summaries.map((summary) => api.get<SurveyResult>(`/api/surveyresults/${encodeURIComponent(summary.id)}`)),
  );
  const fields = new Set(PROTECTED_FIELD_NAMES);
  if (!clinical) {
    const versions = new Map<string, Promise<string[]>>();
    for (const result of results) {
      const key = `${result.surveyId}/${result.surveyVersion}`;
      if (!versions.has(key)) {
        versions.set(
          key,
          api
            .get<Survey>(
              `/api/surveys/${encodeURIComponent(result.surveyId)}/versions/${result.surveyVersion}`,
              {
                handleErrors: true,
              },
            )
            .then(
              (survey) => protectedFields(survey),
              () => [...PROTECTED_FIELD_NAMES],
            ),
        );
      }
    }
    for (const list of await Promise.all(versions.values())) for (const field of list) fields.add(field);
  }
  const label = DURATION_LABELS[duration];
  return withoutProtectedFields({ duration: label, results }, [...fields], clinical);
}

/** The duration filters' labels (SPEC 3). */
export const DURATION_LABELS: Record<0 | 1 | 5, string> = { 0: "Since Yesterday", 1: "Today", 5: "All" };

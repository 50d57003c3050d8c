import { useCallback, useState } from "react";
import { Link } from "react-router-dom";
import { api } from "../../api/client";
import type { ListResponse, SurveyResult, SurveyResultSummary } from "../../api/types";
import { RemoveRecordModal } from "../../ui/confirm-modal";
import { DataTable, downloadJson, sortRows, type Column, type SortState } from "../../ui/data-table";
import { formatDateTime } from "../format";
import { mayDo, useMe } from "../../api/session";
import { listStatus, useLoader } from "../../ui/load-state";

/** Query of the results list. */
export interface ResultsQuery {
  duration: 0 | 1 | 5;
  surveyId?: string | undefined;
  patientId?: string | undefined;
}

/** Downloads a result with its answers as JSON. */
export async function downloadResult(id: string): Promise<void> {
  const result = await api.get<SurveyResult>(`/api/surveyresults/${id}`);
  downloadJson(`survey-result-${id}.json`, result);
}

/** A list of survey results: open read-only, download, remove; sortable in the browser. */
export function ResultsTable({ query, showPatient = true }: { query: ResultsQuery; showPatient?: boolean }) {
  // Removing a clinical record is an admin act unless the practice lets its users (kept, restorable).
  const mayRemove = mayDo(useMe(), "deleteRecords");
  const [data, setData] = useState<ListResponse<SurveyResultSummary> | null>(null);
  const [sort, setSort] = useState<SortState>({ key: "updatedAt", order: "desc" });
  const [removing, setRemoving] = useState<SurveyResultSummary | null>(null);
  const { duration, surveyId, patientId } = query;

  const load = useCallback(async () => {
    setData(
      await api.get<ListResponse<SurveyResultSummary>>("/api/surveyresults", {
        query: { duration, surveyId: surveyId || undefined, patientId },
      }),
    );
  }, [duration, surveyId, patientId]);
  const loading = useLoader(load);

  async function remove(result: SurveyResultSummary) {
    setRemoving(null);
    await api.del(`/api/surveyresults/${result.id}`);
    await load();
  }

  const columns: Column<SurveyResultSummary>[] = [
    ...(showPatient
      ? [{ key: "patientName", header: "Patient", sortable: true } satisfies Column<SurveyResultSummary>]
      : []),
    {
      key: "surveyTitle",
      header: "Survey",
      sortable: true,
      render: (r) => <Link to={`/results/${r.id}`}>{r.surveyTitle}</Link>,
    },
    {
      key: "isSubmitted",
      header: "Status",
      sortable: true,
      render: (r) =>
        r.isSubmitted ? (
          <span className="badge success">Submitted</span>
        ) : (
          <span className="badge">In progress</span>
        ),
    },
    { key: "createdAt", header: "Started", sortable: true, render: (r) => formatDateTime(r.createdAt) },
    { key: "updatedAt", header: "Last saved", sortable: true, render: (r) => formatDateTime(r.updatedAt) },
  ];

  return (
    <>
      <DataTable
        caption="Survey results"
        rows={sortRows(data?.items ?? [], sort, (row, key) => row[key as keyof SurveyResultSummary])}
        rowKey={(r) => r.id}
        rowLabel={(r) => `${r.surveyTitle} of ${r.patientName}`}
        columns={columns}
        sort={sort}
        onSort={setSort}
        actions={{
          onDownload: (r) => void downloadResult(r.id).catch(() => undefined),
          ...(mayRemove ? { onRemove: setRemoving } : {}),
        }}
        empty={listStatus(data !== null, loading, "The survey results", "No survey results in this period.")}
      />
      {removing && (
        <RemoveRecordModal
          record={`${removing.surveyTitle} of ${removing.patientName}, started ${formatDateTime(removing.createdAt)}`}
          onClose={() => setRemoving(null)}
          onConfirm={() => void remove(removing).catch(() => undefined)}
        />
      )}
    </>
  );
}

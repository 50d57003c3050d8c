import { useCallback, useEffect, useState } from "react";
import { PAGE_SIZE } from "@core-care/schema";
import { Link } from "react-router-dom";
import { api } from "../../api/client";
import type { PagedList, SurveyResult, SurveyResultListItem } from "../../api/types";
import { RemoveRecordModal } from "../../ui/confirm-modal";
import { DataTable, downloadJson, sortRows, type Column, type SortState } from "../../ui/data-table";
import { formatDateTime } from "../format";
import { may, useMe } from "../../api/session";
import { listStatus, useLoader } from "../../ui/load-state";
import { Pager, type ListPosition } from "../../ui/pager";

/** List page size (SPEC 9). */

/** The Patient column sorts by last name, then first name. */
const patientSortKey = (r: SurveyResultListItem) => `${r.patientLastName}\u0000${r.patientFirstName}`;

/** "Hobbs, Walter" (the name as lists show it), or the name as stored when the parts are missing. */
const patientText = (r: SurveyResultListItem) =>
  r.patientLastName ? `${r.patientLastName}, ${r.patientFirstName}` : r.patientName;

/** Where the table's paging lives: the page's URL, or the table's own state (when embedded). */
export interface ResultsPaging {
  position: ListPosition;
  onMove: (list: PagedList<unknown>, direction: "next" | "prev") => void;
  sort: SortState;
  onSort: (sort: SortState) => void;
}

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

/**
 * A list of survey results, 200 a page by cursor: open read-only, open the patient, download, remove;
 * columns sort the page in the browser (the Patient column by last name).
 */
export function ResultsTable({
  query,
  showPatient = true,
  paging,
}: {
  query: ResultsQuery;
  showPatient?: boolean;
  paging?: ResultsPaging;
}) {
  // Removing a clinical record is an admin act unless the practice lets its users (kept, restorable).
  const mayRemove = may(useMe(), "removeResults");
  const [data, setData] = useState<PagedList<SurveyResultListItem> | null>(null);
  const [ownSort, setOwnSort] = useState<SortState>({ key: "createdAt", order: "desc" });
  const [ownPosition, setOwnPosition] = useState<ListPosition>({ page: 1, cursor: undefined });
  const [removing, setRemoving] = useState<SurveyResultListItem | null>(null);
  const { duration, surveyId, patientId } = query;
  const position = paging?.position ?? ownPosition;
  const sort = paging?.sort ?? ownSort;
  const cursor = position.cursor;
  // Another period or patient starts again at the first page (the page's own URL does this itself).
  useEffect(() => setOwnPosition({ page: 1, cursor: undefined }), [duration, surveyId, patientId]);

  const load = useCallback(async () => {
    setData(
      await api.get<PagedList<SurveyResultListItem>>("/api/surveyresults", {
        query: { duration, surveyId: surveyId || undefined, patientId, cursor },
      }),
    );
  }, [duration, surveyId, patientId, cursor]);
  const loading = useLoader(load);

  function move(list: PagedList<unknown>, direction: "next" | "prev") {
    if (paging) return paging.onMove(list, direction);
    const next = direction === "next" ? list.nextCursor : list.prevCursor;
    if (next === null) return;
    const page = position.page + (direction === "next" ? 1 : -1);
    setOwnPosition(page <= 1 ? { page: 1, cursor: undefined } : { page, cursor: next });
  }

  async function remove(result: SurveyResultListItem) {
    setRemoving(null);
    await api.del(`/api/surveyresults/${result.id}`);
    await load();
  }

  const patientColumns: Column<SurveyResultListItem>[] = [
    {
      key: "patient",
      header: "Patient",
      sortable: true,
      render: (r) => <Link to={`/patients/${r.patientId}`}>{patientText(r)}</Link>,
    },
    { key: "patientMrn", header: "MRN", sortable: true },
    { key: "patientDob", header: "Date of birth", sortable: true },
  ];
  const columns: Column<SurveyResultListItem>[] = [
    ...(showPatient ? patientColumns : []),
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
        rows={sortRows(data?.items ?? [], sort, (row, key) =>
          key === "patient" ? patientSortKey(row) : row[key as keyof SurveyResultListItem],
        )}
        rowKey={(r) => r.id}
        rowLabel={(r) => `${r.surveyTitle} of ${patientText(r)}`}
        columns={columns}
        sort={sort}
        onSort={paging?.onSort ?? setOwnSort}
        actions={{
          onDownload: (r) => void downloadResult(r.id).catch(() => undefined),
          ...(mayRemove ? { onRemove: setRemoving } : {}),
        }}
        empty={listStatus(data !== null, loading, "The survey results", "No survey results in this period.")}
      />
      {data && (
        <Pager
          list={data}
          page={position.page}
          pageSize={PAGE_SIZE}
          noun="results"
          onMove={(d) => move(data, d)}
        />
      )}
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

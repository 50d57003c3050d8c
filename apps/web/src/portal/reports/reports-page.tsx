import { useEffect, useId, useState } from "react";
import { api } from "../../api/client";
import { useMe } from "../../api/session";
import type { ListResponse, ReportSummary } from "../../api/types";
import { DataTable, sortRows, type SortOrder } from "../../ui/data-table";
import { usePageTitle } from "../page-title";

const FIELDS = [
  ["title", "Title"],
  ["version", "Version"],
  ["clinical", "Clinical"],
] as const;
type Field = (typeof FIELDS)[number][0];

/** The tenant's reports, ordered ascending or descending by a chosen field (SPEC 2). */
export default function ReportsPage() {
  usePageTitle("Reports");
  const id = useId();
  const me = useMe();
  const [reports, setReports] = useState<ReportSummary[] | null>(null);
  const [field, setField] = useState<Field>("title");
  const [order, setOrder] = useState<SortOrder>("asc");
  const tenantId = me?.tenant.id;

  useEffect(() => {
    if (!tenantId) return;
    let live = true;
    api.get<ListResponse<ReportSummary>>(`/api/tenants/${encodeURIComponent(tenantId)}/reports`).then(
      (list) => live && setReports(list.items),
      () => live && setReports([]),
    );
    return () => {
      live = false;
    };
  }, [tenantId]);

  const sort = { key: field, order };
  return (
    <section>
      <div className="page-header">
        <h1>Reports</h1>
      </div>
      <div className="toolbar">
        <div className="field">
          <label htmlFor={`${id}-field`}>Order by</label>
          <select id={`${id}-field`} value={field} onChange={(e) => setField(e.target.value as Field)}>
            {FIELDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-order`}>Direction</label>
          <select
            id={`${id}-order`}
            value={order}
            onChange={(e) => setOrder(e.target.value === "desc" ? "desc" : "asc")}
          >
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </div>
      </div>
      <DataTable
        caption="Reports"
        rows={sortRows(reports ?? [], sort, (row, key) => row[key as keyof ReportSummary])}
        rowKey={(r) => r.id}
        rowLabel={(r) => r.title}
        columns={[
          { key: "title", header: "Title", sortable: true },
          { key: "version", header: "Version", sortable: true },
          { key: "clinical", header: "Clinical", sortable: true, render: (r) => (r.clinical ? "Yes" : "No") },
        ]}
        sort={sort}
        onSort={(s) => {
          setField(s.key as Field);
          setOrder(s.order);
        }}
        empty={reports ? "No reports yet." : "Loading..."}
      />
    </section>
  );
}

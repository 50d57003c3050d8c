import { useCallback, useId, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { Report } from "@core-care/schema";
import { api } from "../../api/client";
import { useMe, may } from "../../api/session";
import { type ListResponse, type ReportSummary } from "../../api/types";
import { createLocalCopy } from "../../designer/local-copy";
import { createReport } from "../../designer/report-designer-page";
import { DataTable, sortRows, type SortOrder } from "../../ui/data-table";
import { usePageTitle } from "../page-title";
import { listStatus, useLoader } from "../../ui/load-state";

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
  const navigate = useNavigate();
  const canEdit = may(me, "editReports");
  const newReport = () => {
    const report = createReport();
    createLocalCopy<Report>("report").write(report, false);
    void navigate(`/reports/${report.id}/edit`);
  };

  const load = useCallback(async () => {
    if (!tenantId) return;
    const list = await api.get<ListResponse<ReportSummary>>(
      `/api/tenants/${encodeURIComponent(tenantId)}/reports`,
    );
    setReports(list.items);
  }, [tenantId]);
  const loading = useLoader(load);

  const sort = { key: field, order };
  return (
    <section>
      <div className="page-header">
        <h1>Reports</h1>
        {canEdit ? (
          <button type="button" className="button primary" onClick={newReport}>
            New report
          </button>
        ) : null}
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
        actions={{
          extra: (r) => (
            <>
              <Link className="button small" to={`/reports/${r.id}`}>
                Open<span className="visually-hidden"> {r.title}</span>
              </Link>
              {canEdit ? (
                <Link className="button small" to={`/reports/${r.id}/edit`}>
                  Edit<span className="visually-hidden"> {r.title}</span>
                </Link>
              ) : null}
            </>
          ),
        }}
        empty={listStatus(reports !== null, loading, "The reports", "No reports yet.")}
      />
    </section>
  );
}

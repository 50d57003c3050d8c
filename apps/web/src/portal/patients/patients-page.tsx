import { useCallback, useEffect, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { formatPhone } from "@core-care/survey-engine";
import { api } from "../../api/client";
import type { ListResponse, Patient } from "../../api/types";
import { RemoveRecordModal } from "../../ui/confirm-modal";
import { DataTable, downloadJson, type Column, type SortState } from "../../ui/data-table";
import { Typeahead } from "../../ui/typeahead";
import { usePageTitle } from "../page-title";
import { patientLabel, patientSuggestions } from "./patient-search";
import { mayDo, useMe } from "../../api/session";
import { listStatus, useLoader } from "../../ui/load-state";
import { StartOnTablet } from "../tablet-link";

/** List page size (SPEC 9). */
export const PAGE_SIZE = 200;

const SEX_LABELS: Record<Patient["sex"], string> = { F: "Female", M: "Male", U: "Unknown" };

const COLUMNS: Column<Patient>[] = [
  {
    key: "lastName",
    header: "Last name",
    sortable: true,
    edit: { required: true },
    render: (p) => <Link to={`/patients/${p.id}`}>{p.lastName}</Link>,
  },
  { key: "firstName", header: "First name", sortable: true, edit: { required: true } },
  { key: "mrn", header: "MRN", sortable: true, edit: { required: true } },
  { key: "dob", header: "Date of birth", sortable: true, edit: { type: "date", required: true } },
  { key: "sex", header: "Sex", render: (p) => SEX_LABELS[p.sex] },
  { key: "phone", header: "Phone", edit: { type: "tel", onBlur: formatPhone } },
];

function toInput(patient: Patient): Omit<Patient, "id"> {
  const { id: _id, ...rest } = patient;
  return rest;
}

/** The patient list (SPEC 2): search, sortable headers, inline edit, download and remove. */
export default function PatientsPage() {
  // Removing a clinical record is an admin act unless the practice lets its users (kept, restorable).
  const mayRemove = mayDo(useMe(), "deleteRecords");
  usePageTitle("Patients");
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const [filter, setFilter] = useState("");
  const [sort, setSort] = useState<SortState>({ key: "lastName", order: "asc" });
  const [page, setPage] = useState(1);
  const [data, setData] = useState<ListResponse<Patient> | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Patient | null>(null);
  const [notice, setNotice] = useState("");

  useEffect(() => {
    const timer = setTimeout(() => setFilter(query.trim()), 300);
    return () => clearTimeout(timer);
  }, [query]);

  const load = useCallback(async () => {
    const list = await api.get<ListResponse<Patient>>("/api/patients", {
      query: { q: filter || undefined, sort: sort.key, order: sort.order, page, limit: PAGE_SIZE },
    });
    setData(list);
  }, [filter, sort, page]);
  const loading = useLoader(load);

  async function saveInline(patient: Patient, values: Record<string, string>) {
    const body = { ...toInput(patient), ...values };
    if (!body.phone) delete body.phone;
    const saved = await api.put<Patient>(`/api/patients/${patient.id}`, body);
    setData((d) => d && { ...d, items: d.items.map((p) => (p.id === saved.id ? saved : p)) });
    setSelected(null);
    setNotice(`Saved ${patientLabel(saved)}.`);
  }

  async function remove(patient: Patient) {
    setRemoving(null);
    await api.del(`/api/patients/${patient.id}`);
    setNotice(`Removed ${patientLabel(patient)}.`);
    await load();
  }

  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  return (
    <section>
      <div className="page-header">
        <h1>Patients</h1>
        <Link to="/patients/new" className="button primary">
          New patient
        </Link>
      </div>
      <div className="toolbar">
        <Typeahead
          label="Search patients"
          placeholder="Name, MRN or e-mail"
          source={patientSuggestions}
          itemKey={(p) => p.id}
          itemLabel={patientLabel}
          onSelect={(p) => void navigate(`/patients/${p.id}`)}
          onQueryChange={(q) => {
            setQuery(q);
            setPage(1);
          }}
        />
      </div>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      <DataTable
        caption="Patients"
        rows={data?.items ?? []}
        rowKey={(p) => p.id}
        rowLabel={patientLabel}
        columns={COLUMNS}
        sort={sort}
        onSort={(s) => {
          setSort(s);
          setPage(1);
        }}
        selectedKey={selected}
        onInlineSave={saveInline}
        onCancelEdit={() => setSelected(null)}
        actions={{
          extra: (p) => <StartOnTablet patientId={p.id} label={`for ${patientLabel(p)}`} small />,
          onEdit: (p) => setSelected(p.id),
          onDownload: (p) => downloadJson(`patient-${p.mrn}.json`, p),
          ...(mayRemove ? { onRemove: setRemoving } : {}),
        }}
        empty={listStatus(
          data !== null,
          loading,
          "The patients",
          filter ? "No patient matches this search." : "No patients yet.",
        )}
      />
      {data && data.total > PAGE_SIZE && (
        <nav className="pager" aria-label="Pages">
          <button
            type="button"
            className="button small"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className="button small"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
          >
            Next
          </button>
        </nav>
      )}
      {removing && (
        <RemoveRecordModal
          record={`Patient ${patientLabel(removing)}`}
          onClose={() => setRemoving(null)}
          onConfirm={() => void remove(removing).catch(() => undefined)}
        />
      )}
    </section>
  );
}

import { useCallback, useEffect, useRef, useState } from "react";
import { PAGE_SIZE } from "@core-care/schema";
import { Link, useNavigate } from "react-router-dom";
import { formatPhone } from "@core-care/survey-engine";
import { api } from "../../api/client";
import type { PagedList, Patient } from "../../api/types";
import { RemoveRecordModal } from "../../ui/confirm-modal";
import { DataTable, downloadJson, type Column, type SortState } from "../../ui/data-table";
import { Typeahead } from "../../ui/typeahead";
import { usePageTitle } from "../page-title";
import { ExportCsvLink } from "../../ui/export-csv-link";
import { patientLabel, patientSuggestions } from "./patient-search";
import { may, useMe } from "../../api/session";
import { listStatus, useLoader } from "../../ui/load-state";
import { StartOnTablet } from "../tablet-link";
import { Pager, useListUrl } from "../../ui/pager";

/** List page size (SPEC 9). */

const SORT_KEYS = ["lastName", "firstName", "mrn", "dob"] as const;

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
  const mayRemove = may(useMe(), "removePatients");
  usePageTitle("Patients");
  const navigate = useNavigate();
  // Search, sort and page live in the URL: reload and Back keep them.
  const { params, position, setFilter, move } = useListUrl();
  const filter = (params.get("q") ?? "").trim();
  const sortKey = SORT_KEYS.find((k) => k === params.get("sort")) ?? "lastName";
  const sort: SortState = { key: sortKey, order: params.get("order") === "desc" ? "desc" : "asc" };
  const { page, cursor } = position;
  const [data, setData] = useState<PagedList<Patient> | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Patient | null>(null);
  const [notice, setNotice] = useState("");
  const typing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(typing.current), []);

  function onQueryChange(q: string) {
    clearTimeout(typing.current);
    typing.current = setTimeout(() => setFilter({ q: q.trim() || undefined }, { replace: true }), 300);
  }

  const load = useCallback(async () => {
    const list = await api.get<PagedList<Patient>>("/api/patients", {
      query: { q: filter || undefined, sort: sort.key, order: sort.order, cursor, limit: PAGE_SIZE },
    });
    setData(list);
  }, [filter, sort.key, sort.order, cursor]);
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
          placeholder="Name, MRN, birth date, e-mail or phone"
          source={patientSuggestions}
          itemKey={(p) => p.id}
          itemLabel={patientLabel}
          onSelect={(p) => void navigate(`/patients/${p.id}`)}
          onQueryChange={onQueryChange}
          initialQuery={params.get("q") ?? ""}
        />
        <ExportCsvLink
          list="patients"
          filters={{ q: filter || undefined, sort: sort.key, order: sort.order }}
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
        onSort={(s) => setFilter({ sort: s.key, order: s.order })}
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
      {data && (
        <Pager list={data} page={page} pageSize={PAGE_SIZE} noun="patients" onMove={(d) => move(data, d)} />
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

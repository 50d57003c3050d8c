import { useCallback, useEffect, useId, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { PAGE_SIZE, type AuditEvent } from "@core-care/schema";
import { api } from "../../api/client";
import { useMe, may } from "../../api/session";
import { type ListResponse, type Patient } from "../../api/types";
import { DataTable, type Column } from "../../ui/data-table";
import { listStatus, useLoader } from "../../ui/load-state";
import { Typeahead } from "../../ui/typeahead";
import { formatDateTime } from "../format";
import { usePageTitle } from "../page-title";
import { patientLabel, patientSuggestions } from "../patients/patient-search";
import {
  actionWords,
  AUDIT_ACTIONS,
  auditQuery,
  detailsText,
  entityWords,
  recordLink,
  type AuditFilters,
} from "./audit-words";

const FILTER_KEYS = ["user", "patientId", "action", "from", "to"] as const;

function filtersOf(params: URLSearchParams): AuditFilters {
  return {
    user: params.get("user") ?? "",
    patientId: params.get("patientId") ?? "",
    action: params.get("action") ?? "",
    from: params.get("from") ?? "",
    to: params.get("to") ?? "",
  };
}

const COLUMNS: Column<AuditEvent>[] = [
  { key: "at", header: "When", render: (e) => <time dateTime={e.at}>{formatDateTime(e.at)}</time> },
  {
    key: "who",
    header: "Who",
    render: (e) =>
      e.user ? (
        <>
          {e.user.name || e.user.email}
          <br />
          <span className="hint">{e.user.email}</span>
        </>
      ) : e.userId === null ? (
        <span className="hint">No one signed in</span>
      ) : (
        <span className="hint">Removed user {e.userId}</span>
      ),
  },
  { key: "action", header: "What", render: (e) => actionWords(e.action) },
  {
    key: "record",
    header: "Record",
    render: (e) => {
      const link = recordLink(e);
      const words = entityWords(e);
      return (
        <>
          {link ? <Link to={link}>{words}</Link> : words}
          {e.entityId !== null && (
            <>
              <br />
              <code className="hint">{e.entityId}</code>
            </>
          )}
        </>
      );
    },
  },
  { key: "ip", header: "From", render: (e) => e.ip ?? "" },
  { key: "details", header: "Details", render: (e) => detailsText(e.details) },
];

/** The patient filter: a patient chosen by name, MRN or e-mail, shown by name while it applies. */
function PatientFilter({ patientId, onChange }: { patientId: string; onChange: (id: string) => void }) {
  const [chosen, setChosen] = useState<Patient | null>(null);
  useEffect(() => {
    if (patientId === "" || chosen?.id === patientId) return;
    let live = true;
    api.get<Patient>(`/api/patients/${encodeURIComponent(patientId)}`, { handleErrors: true }).then(
      (p) => live && setChosen(p),
      () => live && setChosen(null),
    );
    return () => {
      live = false;
    };
  }, [patientId, chosen]);

  if (patientId !== "") {
    return (
      <div className="field">
        <span className="field-label" id="audit-patient-label">
          Patient
        </span>
        <p className="chosen-filter" aria-labelledby="audit-patient-label">
          <strong>{chosen ? patientLabel(chosen) : patientId}</strong>{" "}
          <button type="button" className="button small" onClick={() => onChange("")}>
            Any patient
          </button>
        </p>
      </div>
    );
  }
  return (
    <Typeahead
      label="Patient"
      placeholder="Name, MRN or e-mail"
      source={patientSuggestions}
      itemKey={(p) => p.id}
      itemLabel={patientLabel}
      onSelect={(p) => {
        setChosen(p);
        onChange(p.id);
      }}
    />
  );
}

/**
 * The audit log (admins): who did what to which record, when and from where, newest first; filtered by
 * user, patient, action and days (the filters live in the URL, so a reload or a shared link keeps them),
 * and exported as CSV with the same filters.
 */
export default function AuditPage() {
  usePageTitle("Audit log");
  const id = useId();
  const me = useMe();
  const allowed = may(me, "viewAudit");
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const page = Math.max(1, Number(params.get("page") ?? "1") || 1);
  const [draft, setDraft] = useState(filters);
  const [data, setData] = useState<ListResponse<AuditEvent> | null>(null);
  const query = JSON.stringify({ ...auditQuery(filters), page });

  const load = useCallback(async () => {
    if (!allowed) return;
    setData(null);
    const list = await api.get<ListResponse<AuditEvent>>("/api/audit", {
      query: JSON.parse(query) as Record<string, string>,
    });
    setData(list);
  }, [allowed, query]);
  const loading = useLoader(load);

  // The form follows the URL when it changes by Back or a link.
  useEffect(() => setDraft(filtersOf(params)), [params]);

  if (!allowed) {
    return (
      <section>
        <h1>Audit log</h1>
        <p>You do not have access to this screen.</p>
      </section>
    );
  }

  function apply(next: AuditFilters, nextPage = 1) {
    const search = new URLSearchParams();
    for (const k of FILTER_KEYS) if (next[k] !== "") search.set(k, next[k]);
    if (nextPage > 1) search.set("page", String(nextPage));
    setParams(search);
  }

  const exportQuery = new URLSearchParams(auditQuery(filters)).toString();
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const filtered = FILTER_KEYS.some((k) => filters[k] !== "");
  return (
    <section className="audit-page">
      <div className="page-header">
        <h1>Audit log</h1>
        <a className="button" href={`/api/audit/export${exportQuery ? `?${exportQuery}` : ""}`} download>
          Export CSV
        </a>
      </div>
      <form
        className="toolbar audit-filters"
        aria-label="Filters"
        onSubmit={(event) => {
          event.preventDefault();
          apply(draft);
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-user`}>User</label>
          <input
            id={`${id}-user`}
            type="search"
            placeholder="Name or e-mail"
            value={draft.user}
            onChange={(e) => setDraft({ ...draft, user: e.target.value })}
          />
        </div>
        <PatientFilter
          patientId={draft.patientId}
          onChange={(patientId) => setDraft({ ...draft, patientId })}
        />
        <div className="field">
          <label htmlFor={`${id}-action`}>Action</label>
          <select
            id={`${id}-action`}
            value={draft.action}
            onChange={(e) => setDraft({ ...draft, action: e.target.value })}
          >
            <option value="">Any action</option>
            {AUDIT_ACTIONS.map(([action, words]) => (
              <option key={action} value={action}>
                {words}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-from`}>From</label>
          <input
            id={`${id}-from`}
            type="date"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>To</label>
          <input
            id={`${id}-to`}
            type="date"
            value={draft.to}
            min={draft.from || undefined}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="button primary">
            Apply filters
          </button>
          {filtered && (
            <button
              type="button"
              className="button"
              onClick={() => apply({ user: "", patientId: "", action: "", from: "", to: "" })}
            >
              Clear filters
            </button>
          )}
        </div>
      </form>
      <p className="hint" role="status">
        {data
          ? `${data.total} ${data.total === 1 ? "event" : "events"}${filtered ? " match the filters" : ""}.`
          : ""}
      </p>
      <DataTable
        caption="Audit events"
        rows={data?.items ?? []}
        rowKey={(e) => e.id}
        rowLabel={(e) => `${actionWords(e.action)} ${entityWords(e)}`}
        columns={COLUMNS}
        empty={listStatus(
          data !== null,
          loading,
          "The audit log",
          filtered ? "No event matches these filters." : "No events yet.",
        )}
      />
      {data && data.total > PAGE_SIZE && (
        <nav className="pager" aria-label="Pages">
          <button
            type="button"
            className="button small"
            disabled={page <= 1}
            onClick={() => apply(filters, page - 1)}
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
            onClick={() => apply(filters, page + 1)}
          >
            Next
          </button>
        </nav>
      )}
    </section>
  );
}

import { useCallback, useId, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import type {
  InboundFacilitiesBody,
  InboundFacility,
  InboundMessage,
  InboundOutcome,
} from "@core-care/schema";
import { api } from "../../api/client";
import { useMe } from "../../api/session";
import { hasRole, type ListResponse } from "../../api/types";
import { DataTable, type Column } from "../../ui/data-table";
import { FieldMessage, formFailure, invalidProps, NO_FAILURE, type FormFailure } from "../../ui/field-errors";
import { listStatus, useLoader } from "../../ui/load-state";
import { formatDateTime } from "../format";
import { usePageTitle } from "../page-title";

/** One page of the log: the API's largest. */
const LOG_PAGE = 200;

const OUTCOME_WORDS: Record<InboundOutcome, string> = {
  AA: "Accepted",
  AE: "Error",
  AR: "Rejected",
};

function outcomeWords(message: InboundMessage): string {
  const words = `${OUTCOME_WORDS[message.outcome]} (${message.outcome})`;
  return message.action === undefined ? words : `${words}, patient ${message.action}`;
}

const COLUMNS: Column<InboundMessage>[] = [
  {
    key: "receivedAt",
    header: "Received",
    render: (m) => (
      <>
        <time dateTime={m.receivedAt}>{formatDateTime(m.receivedAt)}</time>
        {m.received > 1 && (
          <>
            <br />
            <span className="hint">
              Sent {m.received} times, last{" "}
              <time dateTime={m.lastReceivedAt}>{formatDateTime(m.lastReceivedAt)}</time>
            </span>
          </>
        )}
      </>
    ),
  },
  { key: "messageType", header: "Type", render: (m) => m.messageType },
  {
    key: "controlId",
    header: "Control id",
    render: (m) => (
      <>
        <code>{m.controlId}</code>
        {m.sendingFacility !== "" && (
          <>
            <br />
            <span className="hint">from {m.sendingFacility}</span>
          </>
        )}
      </>
    ),
  },
  { key: "outcome", header: "Outcome", render: outcomeWords },
  {
    key: "patientMrn",
    header: "Patient MRN",
    render: (m) =>
      m.patientMrn === undefined ? (
        ""
      ) : m.patientId !== undefined ? (
        <Link to={`/patients/${encodeURIComponent(m.patientId)}`}>{m.patientMrn}</Link>
      ) : (
        m.patientMrn
      ),
  },
  { key: "error", header: "Error", render: (m) => m.error ?? "" },
];

interface FacilityRow extends InboundFacility {
  key: number;
}

let nextKey = 0;
const rowOf = (f: InboundFacility): FacilityRow => ({ ...f, key: (nextKey += 1) });

/** The receiving facilities (MSH-6, and MSH-5 when given) whose messages are this practice's. */
function FacilitiesForm() {
  const id = useId();
  const [rows, setRows] = useState<FacilityRow[] | null>(null);
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [saved, setSaved] = useState("");
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    const body = await api.get<InboundFacilitiesBody>("/api/inbound-facilities");
    setRows(body.facilities.map(rowOf));
  }, []);
  const loading = useLoader(load);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    if (rows === null) return;
    setSaving(true);
    setSaved("");
    setFailure(NO_FAILURE);
    try {
      const facilities = rows.map(({ facility, application }) =>
        application === undefined || application.trim() === "" ? { facility } : { facility, application },
      );
      const body = await api.put<InboundFacilitiesBody>(
        "/api/inbound-facilities",
        { facilities },
        { handleErrors: true },
      );
      setRows(body.facilities.map(rowOf));
      setSaved("Receiving facilities saved.");
    } catch (cause) {
      const shown = rows.flatMap((_, i) => [`facilities.${i}.facility`, `facilities.${i}.application`]);
      setFailure(formFailure(cause, shown));
    } finally {
      setSaving(false);
    }
  }

  const change = (key: number, patch: Partial<InboundFacility>) =>
    setRows((current) => current?.map((r) => (r.key === key ? { ...r, ...patch } : r)) ?? null);

  return (
    <form className="form inbound-facilities" aria-labelledby={`${id}-title`} onSubmit={(e) => void save(e)}>
      <h2 id={`${id}-title`}>Receiving facilities</h2>
      <p className="hint" id={`${id}-hint`}>
        HL7 ADT messages (A04, A08, A28, A31) sent to the inbound MLLP port with one of these receiving
        facilities (MSH-6) come to this practice. Give the receiving application (MSH-5) only when the EHR
        sends it.
      </p>
      {rows === null ? (
        listStatus(false, loading, "The receiving facilities", "")
      ) : (
        <>
          {rows.length === 0 && <p>No receiving facility yet: inbound messages are rejected.</p>}
          {rows.map((row, index) => {
            const facilityId = `${id}-facility-${row.key}`;
            const applicationId = `${id}-application-${row.key}`;
            const facilityError = failure.fields[`facilities.${index}.facility`];
            const applicationError = failure.fields[`facilities.${index}.application`];
            return (
              <fieldset key={row.key} className="facility-row">
                <legend>Facility {index + 1}</legend>
                <div className="field">
                  <label htmlFor={facilityId}>Receiving facility (MSH-6)</label>
                  <input
                    id={facilityId}
                    value={row.facility}
                    required
                    maxLength={180}
                    onChange={(e) => change(row.key, { facility: e.target.value })}
                    {...invalidProps(facilityId, facilityError)}
                  />
                  <FieldMessage id={facilityId} message={facilityError} />
                </div>
                <div className="field">
                  <label htmlFor={applicationId}>Receiving application (MSH-5, optional)</label>
                  <input
                    id={applicationId}
                    value={row.application ?? ""}
                    maxLength={180}
                    onChange={(e) => change(row.key, { application: e.target.value })}
                    {...invalidProps(applicationId, applicationError)}
                  />
                  <FieldMessage id={applicationId} message={applicationError} />
                </div>
                <button
                  type="button"
                  className="button small"
                  aria-label={`Remove facility ${index + 1}`}
                  onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
                >
                  Remove
                </button>
              </fieldset>
            );
          })}
          <p className="form-error" role="alert">
            {failure.form}
          </p>
          <p className="hint" role="status">
            {saved}
          </p>
          <div className="form-actions">
            <button
              type="button"
              className="button"
              onClick={() => setRows([...rows, rowOf({ facility: "" })])}
            >
              Add a facility
            </button>
            <button type="submit" className="button primary" disabled={saving}>
              {saving ? "Saving..." : "Save facilities"}
            </button>
          </div>
        </>
      )}
    </form>
  );
}

/**
 * Inbound HL7 (admins): where the practice's EHR sends patients, and the log of what came, newest
 * first: when, type, control id, how it was answered, the patient's MRN and the field at fault.
 */
export default function InboundPage() {
  usePageTitle("Inbound messages");
  const id = useId();
  const me = useMe();
  const allowed = me !== null && (hasRole(me.user.roles, "admin") || hasRole(me.user.roles, "sysAdmin"));
  const [params, setParams] = useSearchParams();
  const outcome = params.get("outcome") ?? "";
  const page = Math.max(1, Number(params.get("page") ?? "1") || 1);
  const [data, setData] = useState<ListResponse<InboundMessage> | null>(null);

  const load = useCallback(async () => {
    if (!allowed) return;
    setData(null);
    const query: Record<string, string> = { page: String(page), limit: String(LOG_PAGE) };
    if (outcome !== "") query.outcome = outcome;
    setData(await api.get<ListResponse<InboundMessage>>("/api/inbound-messages", { query }));
  }, [allowed, outcome, page]);
  const loading = useLoader(load);

  if (!allowed) {
    return (
      <section>
        <h1>Inbound messages</h1>
        <p>You do not have access to this screen.</p>
      </section>
    );
  }

  const go = (next: { outcome?: string; page?: number }) => {
    const search = new URLSearchParams();
    const o = next.outcome ?? outcome;
    const p = next.page ?? 1;
    if (o !== "") search.set("outcome", o);
    if (p > 1) search.set("page", String(p));
    setParams(search);
  };
  const pages = data ? Math.max(1, Math.ceil(data.total / LOG_PAGE)) : 1;

  return (
    <section className="inbound-page">
      <div className="page-header">
        <h1>Inbound messages</h1>
      </div>
      <FacilitiesForm />
      <h2>Messages received</h2>
      <div className="toolbar">
        <div className="field">
          <label htmlFor={`${id}-outcome`}>Outcome</label>
          <select id={`${id}-outcome`} value={outcome} onChange={(e) => go({ outcome: e.target.value })}>
            <option value="">Any outcome</option>
            {(Object.keys(OUTCOME_WORDS) as InboundOutcome[]).map((code) => (
              <option key={code} value={code}>
                {OUTCOME_WORDS[code]} ({code})
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="hint" role="status">
        {data ? `${data.total} ${data.total === 1 ? "message" : "messages"}.` : ""}
      </p>
      <DataTable
        caption="Inbound messages"
        rows={data?.items ?? []}
        rowKey={(m) => m.id}
        rowLabel={(m) => `${m.messageType} ${m.controlId}`}
        columns={COLUMNS}
        empty={listStatus(data !== null, loading, "The inbound messages", "No message received yet.")}
      />
      {data && data.total > LOG_PAGE && (
        <nav className="pager" aria-label="Pages">
          <button
            type="button"
            className="button small"
            disabled={page <= 1}
            onClick={() => go({ page: page - 1 })}
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
            onClick={() => go({ page: page + 1 })}
          >
            Next
          </button>
        </nav>
      )}
    </section>
  );
}

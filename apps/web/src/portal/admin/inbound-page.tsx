import { useCallback, useId, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import {
  INBOUND_PROCESSING_IDS,
  type InboundFacilitiesBody,
  type InboundFacility,
  type InboundMessage,
  type InboundOutcome,
  type InboundProcessingId,
  type InboundSendersBody,
} from "@core-care/schema";
import { api } from "../../api/client";
import { useMe, may } from "../../api/session";
import { type ListResponse } from "../../api/types";
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

/** HL7 table 0103 processing ids in words. */
const PROCESSING_WORDS: Record<InboundProcessingId, string> = {
  P: "Production (P)",
  T: "Training (T)",
  D: "Debugging (D)",
};

interface SenderRow {
  key: number;
  application: string;
  facility: string;
  /** The addresses as typed: separated by commas or spaces. */
  addresses: string;
}

const senderRowOf = (s: { application: string; facility: string; addresses: string[] }): SenderRow => ({
  key: (nextKey += 1),
  application: s.application,
  facility: s.facility,
  addresses: s.addresses.join(", "),
});

const addressList = (text: string) => text.split(/[\s,]+/).filter((a) => a !== "");

/**
 * The senders (MSH-3, MSH-4 and the addresses they connect from) whose messages this practice
 * applies, and the processing id (MSH-11) it applies. Messages from anyone else are rejected (AR).
 */
function SendersForm() {
  const id = useId();
  const [rows, setRows] = useState<SenderRow[] | null>(null);
  const [processingId, setProcessingId] = useState<InboundProcessingId>("P");
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [saved, setSaved] = useState("");
  const [saving, setSaving] = useState(false);

  const show = (body: InboundSendersBody) => {
    setRows(body.senders.map(senderRowOf));
    setProcessingId(body.processingId);
  };
  const load = useCallback(async () => show(await api.get<InboundSendersBody>("/api/inbound-senders")), []);
  const loading = useLoader(load);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    if (rows === null) return;
    setSaving(true);
    setSaved("");
    setFailure(NO_FAILURE);
    const senders = rows.map((r) => ({
      application: r.application,
      facility: r.facility,
      addresses: addressList(r.addresses),
    }));
    try {
      show(
        await api.put<InboundSendersBody>(
          "/api/inbound-senders",
          { senders, processingId },
          { handleErrors: true },
        ),
      );
      setSaved("Senders saved.");
    } catch (cause) {
      const shown = [
        "processingId",
        ...senders.flatMap((s, i) => [
          `senders.${i}.application`,
          `senders.${i}.facility`,
          `senders.${i}.addresses`,
          ...s.addresses.map((_, a) => `senders.${i}.addresses.${a}`),
        ]),
      ];
      setFailure(formFailure(cause, shown));
    } finally {
      setSaving(false);
    }
  }

  const change = (key: number, patch: Partial<SenderRow>) =>
    setRows((current) => current?.map((r) => (r.key === key ? { ...r, ...patch } : r)) ?? null);

  /** The message of a sender's addresses: the list's own, or the first address at fault, named. */
  const addressesError = (index: number, typed: string): string | undefined => {
    const list = failure.fields[`senders.${index}.addresses`];
    if (list !== undefined) return list;
    const addresses = addressList(typed);
    const at = addresses.findIndex((_, a) => failure.fields[`senders.${index}.addresses.${a}`] !== undefined);
    return at === -1 ? undefined : `${addresses[at]}: ${failure.fields[`senders.${index}.addresses.${at}`]}`;
  };

  return (
    <form className="form inbound-senders" aria-labelledby={`${id}-title`} onSubmit={(e) => void save(e)}>
      <h2 id={`${id}-title`}>Senders</h2>
      <p className="hint">
        Only messages from these senders are applied: the sending application (MSH-3) and facility (MSH-4) the
        EHR or interface engine names, connecting from one of the addresses given (an IP address such as
        10.1.2.3, or a network such as 10.1.2.0/24). Any other message is rejected, and is listed among the{" "}
        <Link to="/audit?action=denied">refusals of the audit log</Link>.
      </p>
      {rows === null ? (
        listStatus(false, loading, "The senders", "")
      ) : (
        <>
          {rows.length === 0 && <p>No sender yet: inbound messages are rejected.</p>}
          {rows.map((row, index) => {
            const applicationId = `${id}-application-${row.key}`;
            const facilityId = `${id}-facility-${row.key}`;
            const addressesId = `${id}-addresses-${row.key}`;
            const applicationError = failure.fields[`senders.${index}.application`];
            const facilityError = failure.fields[`senders.${index}.facility`];
            const addressError = addressesError(index, row.addresses);
            return (
              <fieldset key={row.key} className="facility-row">
                <legend>Sender {index + 1}</legend>
                <div className="field">
                  <label htmlFor={applicationId}>Sending application (MSH-3)</label>
                  <input
                    id={applicationId}
                    value={row.application}
                    required
                    maxLength={180}
                    onChange={(e) => change(row.key, { application: e.target.value })}
                    {...invalidProps(applicationId, applicationError)}
                  />
                  <FieldMessage id={applicationId} message={applicationError} />
                </div>
                <div className="field">
                  <label htmlFor={facilityId}>Sending facility (MSH-4)</label>
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
                  <label htmlFor={addressesId}>Addresses allowed</label>
                  <input
                    id={addressesId}
                    value={row.addresses}
                    required
                    maxLength={1400}
                    autoCapitalize="off"
                    spellCheck={false}
                    onChange={(e) => change(row.key, { addresses: e.target.value })}
                    {...invalidProps(addressesId, addressError, `${addressesId}-hint`)}
                  />
                  <p className="hint" id={`${addressesId}-hint`}>
                    Separated by commas.
                  </p>
                  <FieldMessage id={addressesId} message={addressError} />
                </div>
                <button
                  type="button"
                  className="button small"
                  aria-label={`Remove sender ${index + 1}`}
                  onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
                >
                  Remove
                </button>
              </fieldset>
            );
          })}
          <div className="field">
            <label htmlFor={`${id}-processing`}>Messages applied (MSH-11 processing id)</label>
            <select
              id={`${id}-processing`}
              value={processingId}
              onChange={(e) => setProcessingId(e.target.value as InboundProcessingId)}
              {...invalidProps(`${id}-processing`, failure.fields.processingId, `${id}-processing-hint`)}
            >
              {INBOUND_PROCESSING_IDS.map((code) => (
                <option key={code} value={code}>
                  {PROCESSING_WORDS[code]}
                </option>
              ))}
            </select>
            <p className="hint" id={`${id}-processing-hint`}>
              Messages of another processing id (a training or test system's) are rejected.
            </p>
            <FieldMessage id={`${id}-processing`} message={failure.fields.processingId} />
          </div>
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
              onClick={() =>
                setRows([...rows, { key: (nextKey += 1), application: "", facility: "", addresses: "" }])
              }
            >
              Add a sender
            </button>
            <button type="submit" className="button primary" disabled={saving}>
              {saving ? "Saving..." : "Save senders"}
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
  const allowed = may(me, "manageInbound");
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
      <SendersForm />
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

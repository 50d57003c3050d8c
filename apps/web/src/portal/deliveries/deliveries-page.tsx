import { useCallback, useEffect, useId, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import type { DeliveryAccepted, DeliveryListItem, DeliveryListResponse, Interface } from "@core-care/schema";
import { api } from "../../api/client";
import { may, useMe } from "../../api/session";
import { ConfirmModal } from "../../ui/confirm-modal";
import { ExportCsvLink } from "../../ui/export-csv-link";
import { DataTable, type Column } from "../../ui/data-table";
import { listStatus, useLoader } from "../../ui/load-state";
import { Modal } from "../../ui/modal";
import { formatDateTime } from "../format";
import { usePageTitle } from "../page-title";
import { announceDeliveriesChanged } from "./failed-count";
import { StalledQueues } from "./stalled-queues";
import {
  deliveryLabel,
  interfaceKind,
  messageForDisplay,
  STATUS_FILTERS,
  statusQuery,
  statusWords,
} from "./delivery-words";

const PAGE = 50;
/** How often the list is reloaded while a delivery on it is queued or being sent. */
const POLL_MS = 5_000;

const messageUrl = (d: DeliveryListItem, download = false) =>
  `/api/deliveries/${d.id}/message${download ? "?download=true" : ""}`;

/** The exact message or document a delivery sends, with a download of it. */
function MessageModal({ delivery, onClose }: { delivery: DeliveryListItem; onClose: () => void }) {
  const [text, setText] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    api
      .text(messageUrl(delivery), { signal: controller.signal, handleErrors: true })
      .then(setText, () => setFailed(true));
    return () => controller.abort();
  }, [delivery]);
  return (
    <Modal
      title="Message sent"
      onClose={onClose}
      footer={
        <a className="button primary" href={messageUrl(delivery, true)} download>
          Download<span className="visually-hidden"> the message</span>
        </a>
      }
    >
      <p>
        {deliveryLabel(delivery)}, control id <code>{delivery.controlId}</code>
      </p>
      {text !== null ? (
        <pre className="message-text" tabIndex={0} aria-label="The message as sent">
          {messageForDisplay(text)}
        </pre>
      ) : (
        <p>{failed ? "The message could not be loaded." : "Loading..."}</p>
      )}
    </Modal>
  );
}

/**
 * Every delivery of the practice, newest first, filtered by status (kept in the URL): where it went,
 * what went wrong in plain words, the exact message sent, and for admins (or users the practice lets)
 * resend and skip. A failed delivery holds its interface's queue until it is skipped or resent.
 */
export default function DeliveriesPage() {
  usePageTitle("Deliveries");
  const id = useId();
  const me = useMe();
  const mayAct = may(me, "resendDeliveries");
  const [params, setParams] = useSearchParams();
  const status = statusQuery(params.get("status"));
  const interfaceId = params.get("interface") ?? "";
  const q = params.get("q") ?? "";
  const [search, setSearch] = useState(q);
  const [interfaceList, setInterfaceList] = useState<Interface[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    api
      .get<{ items: Interface[] }>("/api/interfaces", { signal: controller.signal, handleErrors: true })
      .then(
        (r) => setInterfaceList(r.items),
        () => undefined,
      );
    return () => controller.abort();
  }, []);
  /** Keeps the filters in the URL; an empty one is left out. */
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
  const [data, setData] = useState<DeliveryListResponse | null>(null);
  const [more, setMore] = useState(false);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const [viewing, setViewing] = useState<DeliveryListItem | null>(null);
  const [skipping, setSkipping] = useState<DeliveryListItem | null>(null);
  const [reloads, setReloads] = useState(0);

  const query = useCallback(
    (before?: string, limit = PAGE) => ({
      limit: String(limit),
      ...(status ? { status } : {}),
      ...(interfaceId ? { interfaceId } : {}),
      ...(q ? { q } : {}),
      ...(before ? { before } : {}),
    }),
    [status, interfaceId, q],
  );

  const load = useCallback(async () => {
    setData(null);
    setData(await api.get<DeliveryListResponse>("/api/deliveries", { query: query() }));
    // reloads: a resend or skip asks for the list again.
  }, [query, reloads]); // eslint-disable-line react-hooks/exhaustive-deps
  const loading = useLoader(load);

  const inFlight = data?.items.some((d) => d.status === "pending" || d.status === "sending") ?? false;
  const shown = data?.items.length ?? 0;
  useEffect(() => {
    if (!inFlight) return;
    const timer = setInterval(() => {
      api
        .get<DeliveryListResponse>("/api/deliveries", {
          query: query(undefined, Math.min(200, Math.max(PAGE, shown))),
          handleErrors: true,
        })
        .then(setData, () => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [inFlight, query, shown]);

  async function loadMore() {
    if (!data?.nextBefore) return;
    setMore(true);
    try {
      const next = await api.get<DeliveryListResponse>("/api/deliveries", { query: query(data.nextBefore) });
      setData({ items: [...data.items, ...next.items], nextBefore: next.nextBefore });
    } finally {
      setMore(false);
    }
  }

  async function act(d: DeliveryListItem, action: "resend" | "skip") {
    setNotice("");
    setBusy(d.id);
    try {
      if (action === "resend") await api.post<DeliveryAccepted>(`/api/deliveries/${d.id}/resend`);
      else await api.post(`/api/deliveries/${d.id}/skip`);
      setNotice(action === "resend" ? "Delivery queued." : "Delivery skipped.");
      setReloads((n) => n + 1);
      announceDeliveriesChanged();
    } finally {
      setBusy(null);
    }
  }

  const columns: Column<DeliveryListItem>[] = [
    {
      key: "createdAt",
      header: "Queued",
      render: (d) => <time dateTime={d.createdAt}>{formatDateTime(d.createdAt)}</time>,
    },
    {
      key: "patient",
      header: "Patient",
      render: (d) =>
        d.patientName === null ? (
          <span className="hint">Removed result</span>
        ) : (
          <Link to={`/results/${d.resultId}`}>{d.patientName}</Link>
        ),
    },
    {
      key: "interface",
      header: "Interface",
      render: (d) => (
        <>
          {d.interfaceName ?? d.interfaceId}
          <br />
          <span className="hint">{interfaceKind(d.interfaceType)}</span>
        </>
      ),
    },
    { key: "format", header: "Format", render: (d) => d.format.toUpperCase() },
    {
      key: "status",
      header: "Status",
      render: (d) => (
        <span
          className={
            d.status === "delivered" ? "badge success" : d.status === "failed" ? "badge danger" : "badge"
          }
        >
          {statusWords(d.status)}
        </span>
      ),
    },
    { key: "attempts", header: "Attempts", render: (d) => String(d.attempts) },
    { key: "lastError", header: "What went wrong", render: (d) => d.lastError ?? "" },
  ];

  return (
    <section className="deliveries-page">
      <div className="page-header">
        <h1>Deliveries</h1>
      </div>
      <p className="hint">
        Each interface sends its messages in the order they were queued. A failed message holds up the
        messages after it to the same interface until it is resent or skipped.
      </p>
      <form className="toolbar" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select id={`${id}-status`} value={status} onChange={(e) => setFilter("status", e.target.value)}>
            <option value="">Every status</option>
            {STATUS_FILTERS.map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-interface`}>Interface</label>
          <select
            id={`${id}-interface`}
            value={interfaceId}
            onChange={(e) => setFilter("interface", e.target.value)}
          >
            <option value="">Every interface</option>
            {interfaceList.map((i) => (
              <option key={i.id} value={i.id}>
                {i.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-q`}>Control id or patient</label>
          <input
            id={`${id}-q`}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") setFilter("q", search.trim());
            }}
            onBlur={() => setFilter("q", search.trim())}
          />
        </div>
        <ExportCsvLink list="deliveries" filters={{ status: status || undefined }} />
      </form>
      {mayAct && <StalledQueues />}
      <div role="status" aria-live="polite">
        {notice && <p className="notice success">{notice}</p>}
      </div>
      <DataTable
        caption="Deliveries"
        rows={data?.items ?? []}
        rowKey={(d) => d.id}
        rowLabel={deliveryLabel}
        columns={columns}
        actions={{
          extra: (d) => (
            <>
              <button type="button" className="button small" onClick={() => setViewing(d)}>
                View message<span className="visually-hidden"> of {deliveryLabel(d)}</span>
              </button>
              {mayAct && d.status !== "pending" && d.status !== "sending" && (
                <button
                  type="button"
                  className="button small"
                  disabled={busy !== null}
                  onClick={() => void act(d, "resend").catch(() => undefined)}
                >
                  Resend<span className="visually-hidden"> {deliveryLabel(d)}</span>
                </button>
              )}
              {mayAct && (d.status === "failed" || d.status === "pending") && (
                <button
                  type="button"
                  className="button small"
                  disabled={busy !== null}
                  onClick={() => setSkipping(d)}
                >
                  Skip<span className="visually-hidden"> {deliveryLabel(d)}</span>
                </button>
              )}
            </>
          ),
        }}
        empty={listStatus(
          data !== null,
          loading,
          "The deliveries",
          status ? `No ${statusWords(status).toLowerCase()} deliveries.` : "No deliveries yet.",
        )}
      />
      {data?.nextBefore && (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="button small" disabled={more} onClick={() => void loadMore()}>
            Show older deliveries
          </button>
        </nav>
      )}
      {viewing && <MessageModal delivery={viewing} onClose={() => setViewing(null)} />}
      {skipping && (
        <ConfirmModal
          title="Skip this message"
          text={`${deliveryLabel(skipping)} will not be sent; the messages queued after it to this interface go on.`}
          onClose={() => setSkipping(null)}
          onConfirm={() => {
            const d = skipping;
            setSkipping(null);
            void act(d, "skip").catch(() => undefined);
          }}
        />
      )}
    </section>
  );
}

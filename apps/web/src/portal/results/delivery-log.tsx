import { useCallback, useEffect, useState } from "react";
import type { Delivery, DeliveryAccepted, DeliveryStatus } from "@core-care/schema";
import { api } from "../../api/client";
import type { Interface, ListResponse } from "../../api/types";
import { DataTable, type Column } from "../../ui/data-table";
import { formatDateTime } from "../format";

/** How often the log is reloaded while a delivery is still on its way. */
export const DELIVERY_POLL_MS = 5_000;

const IN_FLIGHT: readonly DeliveryStatus[] = ["pending", "sending"];

/** The MSA segment of an HL7 acknowledgment (code and control id), or the whole answer of other receivers. */
export function ackSummary(ack: string): string {
  const msa = ack.split(/\r\n|\r|\n/).find((segment) => segment.startsWith("MSA|"));
  return msa ?? ack;
}

function isAborted(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/** Props of {@link DeliveryLog}: the result, and a key the parent changes to reload the log at once. */
export interface DeliveryLogProps {
  resultId: string;
  refreshKey?: number;
}

/**
 * The deliveries of one survey result, newest first: when sent, format, interface, status, attempts,
 * last error and the receiver's ACK, with a resend per delivery. Reloads every 5 seconds while a
 * delivery is pending or sending.
 */
export function DeliveryLog({ resultId, refreshKey = 0 }: DeliveryLogProps) {
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [interfaceNames, setInterfaceNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [reloads, setReloads] = useState(0);
  const [status, setStatus] = useState("");
  const [resending, setResending] = useState<string | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);

  const fetchDeliveries = useCallback(
    (signal: AbortSignal, quiet = false) =>
      api.get<Delivery[]>(`/api/surveyresults/${resultId}/deliveries`, { signal, handleErrors: quiet }),
    [resultId],
  );

  useEffect(() => {
    const controller = new AbortController();
    api
      .get<ListResponse<Interface>>("/api/interfaces", { signal: controller.signal, handleErrors: true })
      .then((list) => setInterfaceNames(new Map(list.items.map((i) => [i.id, i.name]))))
      .catch(() => undefined);
    return () => controller.abort();
  }, [refreshKey]);

  useEffect(() => {
    const controller = new AbortController();
    fetchDeliveries(controller.signal).then(
      (list) => {
        setDeliveries(list);
        setLoadFailed(false);
      },
      (error: unknown) => {
        if (!isAborted(error)) setLoadFailed(true);
      },
    );
    return () => controller.abort();
  }, [fetchDeliveries, refreshKey, reloads]);

  const inFlight = deliveries?.some((d) => IN_FLIGHT.includes(d.status)) ?? false;
  useEffect(() => {
    if (!inFlight) return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      fetchDeliveries(controller.signal, true).then(setDeliveries, () => undefined);
    }, DELIVERY_POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [inFlight, fetchDeliveries]);

  async function resend(delivery: Delivery) {
    setStatus("");
    setResending(delivery.id);
    try {
      await api.post<DeliveryAccepted>(`/api/deliveries/${delivery.id}/resend`);
      setStatus("Delivery queued.");
      setReloads((n) => n + 1);
    } finally {
      setResending(null);
    }
  }

  const interfaceName = (d: Delivery) => interfaceNames.get(d.interfaceId) ?? d.interfaceId;
  const label = (d: Delivery) =>
    `${d.format.toUpperCase()} to ${interfaceName(d)}, ${formatDateTime(d.createdAt)}`;
  const columns: Column<Delivery>[] = [
    { key: "createdAt", header: "Sent", render: (d) => formatDateTime(d.createdAt) },
    { key: "format", header: "Format", render: (d) => d.format.toUpperCase() },
    { key: "interfaceId", header: "Interface", render: interfaceName },
    {
      key: "status",
      header: "Status",
      render: (d) => <span className={d.status === "delivered" ? "badge success" : "badge"}>{d.status}</span>,
    },
    { key: "attempts", header: "Attempts", render: (d) => String(d.attempts) },
    { key: "lastError", header: "Last error", render: (d) => d.lastError ?? "" },
    {
      key: "ack",
      header: "ACK",
      render: (d) => (d.ack === null ? "" : <code title={d.ack}>{ackSummary(d.ack)}</code>),
    },
  ];

  return (
    <div className="card">
      <h2>Deliveries</h2>
      <div role="status" aria-live="polite">
        {status && <p className="notice success">{status}</p>}
      </div>
      <DataTable
        caption="Deliveries"
        rows={deliveries ?? []}
        rowKey={(d) => d.id}
        rowLabel={label}
        columns={columns}
        actions={{
          extra: (d) => (
            <button
              type="button"
              className="button small"
              disabled={resending !== null}
              onClick={() => void resend(d).catch(() => undefined)}
            >
              Resend<span className="visually-hidden"> {label(d)}</span>
            </button>
          ),
        }}
        empty={
          deliveries
            ? "No deliveries yet."
            : loadFailed
              ? "The deliveries could not be loaded."
              : "Loading..."
        }
      />
    </div>
  );
}

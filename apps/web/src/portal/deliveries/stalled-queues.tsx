import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import type { DeliveryCounts } from "@core-care/schema";
import { api } from "../../api/client";

/**
 * The queues a failed message has held longer than the server's stall minutes
 * (GET /api/deliveries/counts), as an alert naming each interface with a link to its deliveries; nothing
 * while none is stalled or the counts cannot be read. For those who may resend or skip.
 */
export function StalledQueues() {
  const [counts, setCounts] = useState<DeliveryCounts | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api
      .get<DeliveryCounts>("/api/deliveries/counts", { signal: controller.signal, handleErrors: true })
      .then(setCounts, () => undefined);
    return () => controller.abort();
  }, []);
  if (counts === null || counts.stalled.length === 0) return null;
  const { stalled, stallMinutes } = counts;
  return (
    <div className="notice danger" role="alert">
      <p>
        {stalled.length === 1
          ? "A failed message has held an interface's queue"
          : `Failed messages have held ${stalled.length} interfaces' queues`}{" "}
        for more than {stallMinutes} {stallMinutes === 1 ? "minute" : "minutes"}:{" "}
        {stalled.map((s, i) => (
          <span key={s.interfaceId}>
            {i > 0 && ", "}
            <Link to={`/deliveries?interface=${s.interfaceId}`}>
              {s.interfaceName ?? "a removed interface"}
            </Link>
          </span>
        ))}
        . Resend or skip it to let the messages after it go.
      </p>
    </div>
  );
}

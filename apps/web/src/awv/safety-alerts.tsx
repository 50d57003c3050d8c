import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router-dom";
import type { SafetyAlert } from "@core-care/schema";
import { api } from "../api/client";
import { may, useMe } from "../api/session";
import { formatDateTime } from "../portal/format";
import "./awv.css";

/**
 * The tenant's open safety alerts (GET /api/alerts), each shown until a staff member acknowledges it
 * (POST /api/alerts/{id}/acknowledge). With `resultId`, only that result's alerts; otherwise all of
 * them, each linking to its result. With `emptyText`, that is said when none is open.
 */
export function SafetyAlerts({ resultId, emptyText }: { resultId?: string; emptyText?: string }) {
  const [alerts, setAlerts] = useState<SafetyAlert[] | null>(null);
  const me = useMe();
  // Acknowledging says a clinician acted on it: admins may, and plain users where the practice allows.
  const canAcknowledge = may(me, "acknowledgeAlerts");

  const load = useCallback(async () => {
    const open = await api.get<SafetyAlert[]>("/api/alerts");
    setAlerts(resultId === undefined ? open : open.filter((alert) => alert.resultId === resultId));
  }, [resultId]);

  useEffect(() => {
    load().catch(() => undefined);
  }, [load]);

  async function acknowledge(id: string) {
    await api.post(`/api/alerts/${id}/acknowledge`);
    await load();
  }

  if (alerts === null || alerts.length === 0) {
    return alerts !== null && emptyText !== undefined ? <p className="hint">{emptyText}</p> : null;
  }
  return (
    <div className="awv-alerts" aria-label="Safety alerts">
      {alerts.map((alert) => (
        <div key={alert.id} className="safety-alert" role="alert">
          <p>
            Safety alert: {alert.message}
            {resultId === undefined && (
              <>
                {" "}
                <Link to={`/results/${alert.resultId}`}>
                  Open the result from {formatDateTime(alert.createdAt)}
                </Link>
              </>
            )}
          </p>
          {canAcknowledge && (
            <button
              type="button"
              className="button danger awv-no-print"
              onClick={() => acknowledge(alert.id).catch(() => undefined)}
            >
              Acknowledge
            </button>
          )}
        </div>
      ))}
    </div>
  );
}

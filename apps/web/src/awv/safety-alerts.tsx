import { useCallback, useEffect, useState } from "react";
import type { SafetyAlert } from "@core-care/schema";
import { api } from "../api/client";
import "./awv.css";

/**
 * The open safety alerts of one survey result (GET /api/alerts), each shown until a staff member
 * acknowledges it (POST /api/alerts/{id}/acknowledge).
 */
export function SafetyAlerts({ resultId }: { resultId: string }) {
  const [alerts, setAlerts] = useState<SafetyAlert[]>([]);

  const load = useCallback(async () => {
    const open = await api.get<SafetyAlert[]>("/api/alerts");
    setAlerts(open.filter((alert) => alert.resultId === resultId));
  }, [resultId]);

  useEffect(() => {
    load().catch(() => undefined);
  }, [load]);

  async function acknowledge(id: string) {
    await api.post(`/api/alerts/${id}/acknowledge`);
    await load();
  }

  if (alerts.length === 0) return null;
  return (
    <div className="awv-alerts" aria-label="Safety alerts">
      {alerts.map((alert) => (
        <div key={alert.id} className="safety-alert" role="alert">
          <p>Safety alert: {alert.message}</p>
          <button
            type="button"
            className="button danger awv-no-print"
            onClick={() => acknowledge(alert.id).catch(() => undefined)}
          >
            Acknowledge
          </button>
        </div>
      ))}
    </div>
  );
}

import { useEffect, useState } from "react";
import { NavLink, useLocation } from "react-router-dom";
import type { DeliveryCounts } from "@core-care/schema";
import { api } from "../../api/client";

/** Sent on `window` when a delivery was resent or skipped, so the navigation's count follows at once. */
export const DELIVERIES_CHANGED_EVENT = "core-care:deliveries-changed";
/** How often the count is read while a page stays open. */
const REFRESH_MS = 60_000;

export function announceDeliveriesChanged(): void {
  window.dispatchEvent(new Event(DELIVERIES_CHANGED_EVENT));
}

/**
 * The navigation's Deliveries link with the count of failed deliveries waiting for someone, read on
 * every page change, every minute and after a resend or skip. The count is part of the link's name
 * ("Deliveries 2 failed"), so a screen reader says it too.
 */
export function DeliveriesNavLink() {
  const { pathname } = useLocation();
  const [failed, setFailed] = useState(0);
  const [changes, setChanges] = useState(0);

  useEffect(() => {
    const changed = () => setChanges((n) => n + 1);
    window.addEventListener(DELIVERIES_CHANGED_EVENT, changed);
    const timer = setInterval(changed, REFRESH_MS);
    return () => {
      window.removeEventListener(DELIVERIES_CHANGED_EVENT, changed);
      clearInterval(timer);
    };
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    api.get<DeliveryCounts>("/api/deliveries/counts", { signal: controller.signal, handleErrors: true }).then(
      (counts) => setFailed(counts.failed),
      () => undefined,
    );
    return () => controller.abort();
  }, [pathname, changes]);

  return (
    <NavLink to="/deliveries">
      Deliveries
      {failed > 0 && (
        <span className="nav-count">
          {failed}
          <span className="visually-hidden"> failed</span>
        </span>
      )}
    </NavLink>
  );
}

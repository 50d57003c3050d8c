import { useEffect } from "react";
import { useNavigate } from "react-router-dom";
import { startSessionTimers } from "./activity";
import { ApiError, api, currentLocation, sessionLost, sessionMark } from "./client";
import type { ClientConfig } from "./types";

/** The login page's message after an idle timeout (SPEC 4). */
export const IDLE_MESSAGE = "Your session has timed out due to inactivity.";

/** The logout URL that brings the user back to `returnTo` after signing in again. */
export function logoutUrl(returnTo: string, message?: string): string {
  const params = new URLSearchParams();
  if (message) params.set("message", message);
  params.set("redirect", returnTo);
  return `/auth/logout?${params.toString()}`;
}

/**
 * GET /api/auth/keepalive with its own 401 handling (none for a session this page has replaced since);
 * other failures are only logged (SPEC 7, 8).
 */
export async function keepalive(onUnauthorized: () => void): Promise<void> {
  const mark = sessionMark();
  try {
    await api.get("/api/auth/keepalive", { handleErrors: true });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      if (sessionLost(mark)) onUnauthorized();
    } else console.warn("keepalive failed", error instanceof ApiError ? error.status : "network");
  }
}

/** Runs the idle timeout and keepalive pings of a signed-in screen with the server's config. */
export function useSessionTimers(config: ClientConfig | null): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!config) return;
    return startSessionTimers({
      idleTimeoutMs: config.idleTimeoutSeconds * 1000,
      keepaliveIntervalMs: config.keepaliveIntervalSeconds * 1000,
      keepaliveMinDelayMs: config.keepaliveMinDelaySeconds * 1000,
      onIdle: () => void navigate(logoutUrl(currentLocation(), IDLE_MESSAGE)),
      ping: () => void keepalive(() => void navigate(logoutUrl(currentLocation()))),
    });
  }, [config, navigate]);
}

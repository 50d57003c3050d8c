/** Events that count as activity (SPEC 4: touch, mouse press, key press). */
export const ACTIVITY_EVENTS = ["touchstart", "mousedown", "keydown"] as const;
/** localStorage key sharing the last activity time between tabs of the same session. */
export const LAST_ACTIVITY_KEY = "lastActivity";
const SHARE_EVERY_MS = 5_000;

/** Options of {@link startSessionTimers}. */
export interface SessionTimerOptions {
  idleTimeoutMs: number;
  keepaliveIntervalMs: number;
  keepaliveMinDelayMs: number;
  onIdle: () => void;
  ping: () => void;
  now?: () => number;
  target?: EventTarget;
  storage?: Pick<Storage, "getItem" | "setItem"> | null;
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Runs the idle timeout and the keepalive schedule (SPEC 4, 9): activity restarts the idle timer and
 * schedules one keepalive ping at most once per `keepaliveIntervalMs` and never sooner than
 * `keepaliveMinDelayMs`. Activity in another tab of the same browser also counts, so a user working
 * in one tab is not signed out by an idle one. Returns the function that stops both timers.
 */
export function startSessionTimers(options: SessionTimerOptions): () => void {
  const now = options.now ?? Date.now;
  const target = options.target ?? window;
  const storage = options.storage === undefined ? safeStorage() : options.storage;
  let lastActivity = now();
  let lastShared = 0;
  let lastPing = now();
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setTimeout> | undefined;

  const sharedActivity = (): number => {
    const value = Number(storage?.getItem(LAST_ACTIVITY_KEY) ?? 0);
    return Number.isFinite(value) ? value : 0;
  };

  const armIdle = (delay: number) => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      const latest = Math.max(lastActivity, sharedActivity());
      const remaining = latest + options.idleTimeoutMs - now();
      if (remaining > 0) armIdle(remaining);
      else options.onIdle();
    }, delay);
  };

  const schedulePing = () => {
    if (pingTimer !== undefined) return;
    const delay = Math.max(options.keepaliveMinDelayMs, lastPing + options.keepaliveIntervalMs - now());
    pingTimer = setTimeout(() => {
      pingTimer = undefined;
      lastPing = now();
      options.ping();
    }, delay);
  };

  const onActivity = () => {
    lastActivity = now();
    if (storage && lastActivity - lastShared >= SHARE_EVERY_MS) {
      lastShared = lastActivity;
      try {
        storage.setItem(LAST_ACTIVITY_KEY, String(lastActivity));
      } catch {
        // A full or disabled storage only loses the sharing between tabs.
      }
    }
    armIdle(options.idleTimeoutMs);
    schedulePing();
  };

  for (const type of ACTIVITY_EVENTS)
    target.addEventListener(type, onActivity, { capture: true, passive: true });
  armIdle(options.idleTimeoutMs);

  return () => {
    for (const type of ACTIVITY_EVENTS) target.removeEventListener(type, onActivity, { capture: true });
    clearTimeout(idleTimer);
    clearTimeout(pingTimer);
  };
}

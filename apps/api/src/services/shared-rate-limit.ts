import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/index.js";

/** How stale a process's view of a caller's count across the fleet may grow before it asks again. */
export const SYNC_MS = 1_000;
const MAX_KEYS = 50_000;

interface Entry {
  /** The fixed window (epoch ms of its start) these counts belong to. */
  window: number;
  /** The fleet's count as the database last answered it, this process's hits included. */
  known: number;
  /** This process's hits since then, not yet written. */
  pending: number;
  syncedAt: number;
}

type Callback = (error: Error | null, result: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit shared by every API process on one PostgreSQL database, so that a
 * caller's budget is the same whichever process its requests reach. Windows are fixed and aligned
 * to the clock (every process agrees where one starts). A process counts locally and, at most once
 * per {@link SYNC_MS} per caller, adds its new hits to the database in one statement and learns the
 * fleet's total: the limit holds across processes to within a second's requests, at one statement
 * per active caller per second rather than one per request.
 */
export function sharedRateLimitStore(db: Db): { Store: new () => RateLimitStore; stop(): void } {
  const entries = new Map<string, Entry>();

  const sync = async (key: string, entry: Entry): Promise<number> => {
    const hits = entry.pending;
    entry.pending = 0;
    entry.syncedAt = Date.now();
    try {
      const rows = rowsOf<{ hits: number }>(
        await db.execute(sql`
          insert into rate_limits (key, window_start, hits) values (${key}, ${entry.window}, ${hits})
          on conflict (key) do update set
            hits = case when rate_limits.window_start = excluded.window_start
                        then rate_limits.hits + excluded.hits else excluded.hits end,
            window_start = excluded.window_start
          where rate_limits.window_start <= excluded.window_start
          returning hits`),
      );
      entry.known = Math.max(entry.known + hits, rows[0]?.hits ?? 0);
    } catch {
      // The database answers nothing now: count locally; the request itself will meet the outage.
      entry.known += hits;
    }
    return entry.known + entry.pending;
  };

  // Hits counted since the last sync are written within a second even if the caller goes quiet, so
  // that another process asking next sees them.
  const flusher = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of entries) {
      if (entry.pending > 0 && now - entry.syncedAt >= SYNC_MS / 2) void sync(key, entry);
      else if (entry.pending === 0 && now - entry.syncedAt > 10 * 60_000) entries.delete(key);
    }
  }, SYNC_MS / 2);
  flusher.unref();

  class SharedRateLimitStore implements RateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = Date.now();
      const window = Math.floor(now / timeWindow) * timeWindow;
      const ttl = window + timeWindow - now;
      let entry = entries.get(key);
      if (entry === undefined || entry.window !== window) {
        if (entries.size >= MAX_KEYS) entries.clear();
        entry = { window, known: 0, pending: 0, syncedAt: 0 };
        entries.set(key, entry);
      }
      entry.pending++;
      if (now - entry.syncedAt < SYNC_MS) {
        callback(null, { current: entry.known + entry.pending, ttl });
        return;
      }
      void sync(key, entry).then((current) => callback(null, { current, ttl }));
    }

    child(): SharedRateLimitStore {
      return new SharedRateLimitStore();
    }
  }
  return { Store: SharedRateLimitStore, stop: () => clearInterval(flusher) };
}

/** What @fastify/rate-limit asks of a store. */
interface RateLimitStore {
  incr(key: string, callback: Callback, timeWindow: number): void;
  child(): RateLimitStore;
}

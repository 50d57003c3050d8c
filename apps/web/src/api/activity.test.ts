import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { startSessionTimers } from "./activity";

const MIN = 10_000;
const INTERVAL = 300_000;
const IDLE = 1_440_000;

function setup(storage: Pick<Storage, "getItem" | "setItem"> | null = null) {
  const target = new EventTarget();
  const events = { idle: 0, pings: [] as number[] };
  const stop = startSessionTimers({
    idleTimeoutMs: IDLE,
    keepaliveIntervalMs: INTERVAL,
    keepaliveMinDelayMs: MIN,
    onIdle: () => events.idle++,
    ping: () => events.pings.push(Date.now()),
    target,
    storage,
  });
  const act = (type = "mousedown") => target.dispatchEvent(new Event(type));
  return { events, act, stop };
}

function memoryStorage(): Pick<Storage, "getItem" | "setItem"> {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000_000 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("startSessionTimers", () => {
  test("signals idle after the timeout without activity", () => {
    const { events, stop } = setup();
    vi.advanceTimersByTime(IDLE - 1);
    expect(events.idle).toBe(0);
    vi.advanceTimersByTime(1);
    expect(events.idle).toBe(1);
    stop();
  });

  test("restarts the idle timer on touch, mouse press and key press", () => {
    const { events, act, stop } = setup();
    for (const type of ["touchstart", "mousedown", "keydown"]) {
      vi.advanceTimersByTime(IDLE - 1000);
      act(type);
    }
    vi.advanceTimersByTime(IDLE - 1);
    expect(events.idle).toBe(0);
    vi.advanceTimersByTime(1);
    expect(events.idle).toBe(1);
    stop();
  });

  test("pings no sooner than 300 seconds after the last ping and at least 10 seconds after activity", () => {
    const start = Date.now();
    const { events, act, stop } = setup();
    act();
    vi.advanceTimersByTime(INTERVAL - 1);
    expect(events.pings).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events.pings).toEqual([start + INTERVAL]);
    vi.advanceTimersByTime(100_000);
    act();
    act();
    vi.advanceTimersByTime(INTERVAL);
    expect(events.pings).toEqual([start + INTERVAL, start + 2 * INTERVAL]);
    vi.advanceTimersByTime(INTERVAL + 50_000);
    act();
    vi.advanceTimersByTime(MIN - 1);
    expect(events.pings).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(events.pings).toHaveLength(3);
    stop();
  });

  test("sends no ping without activity", () => {
    const { events, stop } = setup();
    vi.advanceTimersByTime(IDLE - 1);
    expect(events.pings).toEqual([]);
    stop();
  });

  test("counts activity in another tab through shared storage", () => {
    const storage = memoryStorage();
    const { events, stop } = setup(storage);
    vi.advanceTimersByTime(IDLE - 60_000);
    storage.setItem("lastActivity", String(Date.now()));
    vi.advanceTimersByTime(60_000);
    expect(events.idle).toBe(0);
    vi.advanceTimersByTime(IDLE - 60_000);
    expect(events.idle).toBe(1);
    stop();
  });

  test("stops both timers and listening when stopped", () => {
    const { events, act, stop } = setup();
    act();
    stop();
    act();
    vi.advanceTimersByTime(IDLE * 2);
    expect(events).toEqual({ idle: 0, pings: [] });
  });
});

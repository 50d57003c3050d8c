// @vitest-environment node
import { describe, expect, test } from "vitest";
import { loadInterpreter, reportMemoryLimit, runReportScript, type ReportRun } from "./report-runner";

const MEMORY = 16 * 1024 * 1024;
const DATA = {
  results: [
    { id: "r1", isSubmitted: true },
    { id: "r2", isSubmitted: false },
  ],
};

/** Runs `script` as the Worker does: a fresh interpreter with a memory of its own, then the run. */
async function run(script: string, overrides: Partial<ReportRun> = {}) {
  const memoryBytes = overrides.memoryBytes ?? MEMORY;
  return runReportScript(await loadInterpreter(memoryBytes), {
    script,
    json: JSON.stringify(DATA),
    timeoutMs: 5_000,
    memoryBytes,
    modelChars: 1_000_000,
    ...overrides,
  });
}

describe("runReportScript", () => {
  test("returns the script's model as JSON, its data when it returns nothing, and waits for its promise", async () => {
    expect(await run("return { n: data.results.filter((r) => r.isSubmitted).length };")).toEqual({
      ok: true,
      model: '{"n":1}',
    });
    expect(await run("data.seen = true;")).toEqual({
      ok: true,
      model: JSON.stringify({ ...DATA, seen: true }),
    });
    expect(await run("return Promise.resolve(2).then((x) => ({ x: x * 21 }));")).toEqual({
      ok: true,
      model: '{"x":42}',
    });
  });

  test("stops a script that allocates without end at its memory's maximum, and one that doubles a string", async () => {
    const started = Date.now();
    for (const script of [
      "let a = []; for (;;) a.push(new Array(1e6).fill(1));",
      'const keep = []; for (;;) keep.push({ text: "y".repeat(1000) });',
      "const m = new Map(); for (let i = 0; ; i++) m.set(i, [i, String(i)]);",
    ]) {
      expect(await run(script), script).toMatchObject({ ok: false, reason: "memory" });
    }
    expect(await run('let s = "x"; for (;;) s += s;')).toMatchObject({ ok: false, reason: "length" });
    // Each reaches the 16 MB limit long before the 5 s deadline (QuickJS's own malloc limit alone let the
    // arrays grow to 2 GB).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await run("return { ok: 1 };")).toEqual({ ok: true, model: '{"ok":1}' });
  });

  test("stops a loop at its deadline, and says so of a promise that never settles", async () => {
    const started = Date.now();
    expect(await run("for (;;) {}", { timeoutMs: 200 })).toMatchObject({ ok: false, reason: "time" });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await run("return new Promise(() => {});")).toMatchObject({ ok: false, reason: "script" });
  });

  test("refuses a model longer than its limit, and reports a script's own error", async () => {
    expect(await run('return { text: "z".repeat(2_000_000) };')).toMatchObject({
      ok: false,
      reason: "output",
    });
    expect(await run("throw new TypeError('no rows');")).toEqual({
      ok: false,
      reason: "script",
      error: "TypeError: no rows",
    });
    expect(await run("throw null;")).toEqual({ ok: false, reason: "script", error: "null" });
    expect(await run("return nothing.here;")).toMatchObject({ ok: false, reason: "script" });
  });

  test("gives the script the language alone: no network, timers or host objects", async () => {
    const names = [
      "fetch",
      "XMLHttpRequest",
      "WebSocket",
      "importScripts",
      "postMessage",
      "self",
      "window",
      "setTimeout",
    ];
    expect(
      await run(`return ${JSON.stringify(names)}.filter((n) => typeof globalThis[n] !== "undefined");`),
    ).toEqual({
      ok: true,
      model: "[]",
    });
  });

  test("allows the base memory plus six times the data, up to a gigabyte", () => {
    expect(reportMemoryLimit(0)).toBe(64 * 1024 * 1024);
    expect(reportMemoryLimit(10 * 1024 * 1024)).toBe(124 * 1024 * 1024);
    expect(reportMemoryLimit(1024 * 1024 * 1024)).toBe(1024 * 1024 * 1024);
  });
});

/**
 * Report runner benchmark: the report designer's "Run on results" over the demo practice's results, in
 * Chromium against the real API server on embedded PostgreSQL, from the click to the rendered report
 * (every row of it counted), for one day's 1,000 results and all 10,000; beside the same server call
 * alone (the stream read to its end by Node), with the browser's JS heap and the server's peak memory.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { launchBenchBrowser } from "./browser";
import { startApiServer } from "./api-server";

const apiRoot = resolve(import.meta.dirname, "../../api");
const TOTAL = Number(process.env.BENCH_REPORT_RESULTS ?? 10_000);
const TODAY = Math.round(TOTAL / 10);
const TARGET_MS = 5_000;

/** Peak resident memory of a process (VmHWM), in MiB. */
function peakMiB(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0) / 1024;
}

async function seed(dataDir: string): Promise<void> {
  await new Promise<void>((done, fail) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--conditions=source",
        "bench/seed-results.ts",
        dataDir,
        String(TOTAL),
        String(TODAY),
      ],
      { cwd: apiRoot, stdio: ["ignore", "inherit", "inherit"] },
    );
    child.once("exit", (code) => (code === 0 ? done() : fail(new Error(`seeding exited with ${code}`))));
  });
}

export async function benchReport(appDir: string): Promise<void> {
  console.log(`\nReport runner: seeding ${TOTAL} results (${TODAY} of them today)…`);
  const api = await startApiServer(appDir, { prepare: seed });
  const browser = await launchBenchBrowser();
  try {
    const startPeak = peakMiB(api.pid);
    const admin = await api.login("admin@demo.test");
    const [name = "", value = ""] = admin.split("=");
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name, value, url: api.origin }]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await page.goto(`${api.origin}/reports`);
    await page.getByRole("button", { name: "New report" }).click();
    const run = page.getByRole("button", { name: "Run on results" });
    await run.waitFor();

    const rows: string[][] = [];
    let allMs = Number.NaN;
    for (const [label, value, expected] of [
      ["Today", "1", TODAY],
      ["All", "5", TOTAL],
    ] as const) {
      // The server call alone, read to its end: the floor of the report's time.
      const streamStart = performance.now();
      const response = await fetch(`${api.origin}/api/surveyresults/report?duration=${value}`, {
        headers: { cookie: admin, "x-requested-with": "XMLHttpRequest", "accept-encoding": "br" },
      });
      const bytes = (await response.arrayBuffer()).byteLength;
      const streamMs = performance.now() - streamStart;

      await page.getByLabel("Duration").selectOption(value);
      const start = performance.now();
      await run.click();
      await page
        .getByRole("status")
        .filter({ hasText: "Rendered from the practice's survey results." })
        .waitFor({ timeout: 120_000 });
      const ms = performance.now() - start;
      const frame = page.frames().find((f) => f !== page.mainFrame());
      const shown = frame ? await frame.locator("tbody tr").count() : 0;
      if (shown !== expected) throw new Error(`${label}: the report shows ${shown} rows, not ${expected}`);
      const { metrics } = await cdp.send("Performance.getMetrics");
      const heap = (metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0) / 1024 / 1024;
      if (value === "5") allMs = ms;
      rows.push([
        `${label} (${expected} results)`,
        (bytes / 1024).toFixed(0),
        streamMs.toFixed(0),
        ms.toFixed(0),
        (ms / streamMs).toFixed(2),
        heap.toFixed(0),
        peakMiB(api.pid).toFixed(0),
      ]);
    }
    console.log(
      `\nChromium (no throttling), real API server on embedded PostgreSQL; load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}\n`,
    );
    const header = [
      "report over",
      "stream KiB (br)",
      "stream alone ms",
      "click to rendered ms",
      "/ stream",
      "page JS heap MiB",
      "server peak RSS MiB",
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
    const line = (r: string[]) =>
      r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
    console.log(line(header));
    for (const r of rows) console.log(line(r));
    console.log(
      `The server's peak RSS before any report: ${startPeak.toFixed(0)} MiB (PGlite runs in its process).`,
    );
    console.log(
      `Target: a ${TOTAL}-result report rendered in <= ${TARGET_MS} ms: ${allMs.toFixed(0)} ms, ${allMs <= TARGET_MS ? "met" : "MISSED"}`,
    );
  } finally {
    await browser.close();
    await api.stop();
  }
}

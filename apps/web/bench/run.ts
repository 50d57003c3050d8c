/**
 * Tablet runner benchmark: bytes the tablet route loads before its first render, beside a minimal
 * SurveyJS runner and a bare React page built the same way in the same run, and time to first
 * content in Chromium with the CPU throttled 4x. The tablet route is the app's own build, its page
 * (tablet.html) served as the API serves it; it is timed on a first visit and on a repeat visit,
 * when the browser's cache and the tablet's service worker hold its files.
 *
 *   pnpm --filter @core-care/web bench        (BENCH_RUNS=9 for more samples, CHROMIUM_PATH to pick a browser)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chromium, type Browser } from "@playwright/test";
import { build, type Manifest } from "vite";
import type { Survey } from "@core-care/survey-engine";
import { TABLET_SESSION_KEY, type TabletSession } from "../src/tablet/tablet-session";
// The API's own choice of page, so the tablet route is measured on the page the server sends.
import { pageFor, TABLET_PAGE } from "../../api/src/plugins/html";

const webRoot = resolve(import.meta.dirname, "..");
const runs = Number(process.env.BENCH_RUNS ?? 7);
const cpuSlowdown = 4;
const targetBrotliKiB = 100;
const targetFcpRatio = 1.4;

interface Bundle {
  name: string;
  dir: string;
  files: string[];
  raw: number;
  gzip: number;
  brotli: number;
}

async function viteBuild(configFile: string, root: string, outDir: string): Promise<Manifest> {
  await build({
    configFile,
    root,
    logLevel: "warn",
    build: { outDir, emptyOutDir: true, manifest: true, sourcemap: false },
  });
  return JSON.parse(readFileSync(join(outDir, ".vite", "manifest.json"), "utf8")) as Manifest;
}

/** The build's files a page names: its script, styles and module preloads. */
function pageFiles(dir: string, page: string): string[] {
  const html = readFileSync(join(dir, page), "utf8");
  return [...html.matchAll(/(?:src|href)="\/([^"]+\.(?:js|css))"/g)].map((match) => match[1] as string);
}

/**
 * The JS and CSS files `keys` load before running: each chunk, its CSS, and its static imports,
 * transitively; with `lazy`, also what they import on demand later.
 */
function staticClosure(manifest: Manifest, keys: string[], lazy = false): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
    if (lazy) for (const imported of chunk.dynamicImports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...files].filter((file) => file.endsWith(".js") || file.endsWith(".css")).sort();
}

function measure(name: string, dir: string, files: string[]): Bundle {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const file of files) {
    const bytes = readFileSync(join(dir, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    brotli += brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length;
  }
  return { name, dir, files, raw, gzip, brotli };
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
  ".json": "application/json",
};

/** The same two pages as the SurveyJS runner in bench/surveyjs/main.tsx. */
const benchSurvey: Survey = {
  id: "65a000000000000000000001",
  title: "Runner comparison",
  description: "",
  canSubscribeTo: false,
  version: 1,
  sections: [],
  pages: [
    {
      id: "p1",
      title: "Contact",
      conditions: [],
      questions: [
        { id: "q1", type: "text", fieldName: "name", title: "Your name", required: true },
        { id: "q2", type: "phone", fieldName: "phone", title: "Phone number" },
        {
          id: "q3",
          type: "radio",
          fieldName: "smoker",
          title: "Do you smoke?",
          required: true,
          choices: [
            { value: "yes", label: "yes" },
            { value: "no", label: "no" },
          ],
        },
        {
          id: "q4",
          type: "checkbox",
          fieldName: "diets",
          title: "Diets",
          choices: [
            { value: "Low fat", label: "Low fat" },
            { value: "None", label: "None" },
          ],
        },
        { id: "q5", type: "scale", fieldName: "pain", title: "Pain today", min: 0, max: 10 },
      ],
    },
    {
      id: "p2",
      title: "More",
      conditions: [],
      questions: [{ id: "q6", type: "textarea", fieldName: "notes", title: "Anything else?" }],
    },
  ],
};

/**
 * Serves a build folder with the single-page fallback: the page the API would choose for the path
 * when the build has it, else index.html. For the tablet it also answers the two calls the runner
 * makes before showing its first question (configuration and the survey), the way the API would, so
 * the first question can be timed without a database.
 */
async function serve(dir: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    if (path === "/api/config") {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({
          idleTimeoutSeconds: 1440,
          keepaliveIntervalSeconds: 300,
          keepaliveMinDelaySeconds: 10,
        }),
      );
      return;
    }
    if (path === `/api/surveys/${benchSurvey.id}`) {
      res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      res.end(JSON.stringify({ ...benchSurvey, readOnly: true }));
      return;
    }
    if (path.startsWith("/api/")) {
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ responseStatus: { status: 404, message: "Not found" } }));
      return;
    }
    let file = join(dir, normalize(path));
    if (!file.startsWith(dir) || !existsSync(file) || statSync(file).isDirectory()) {
      file = join(dir, pageFor(path));
      if (!existsSync(file)) file = join(dir, "index.html");
    }
    res.writeHead(200, {
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
      // As the API serves them: the build's hashed files for a year, everything else never stored.
      "Cache-Control": path.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-store",
    });
    res.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface Timing {
  fcp: number;
  firstQuestion: number;
}

interface PageCase {
  name: string;
  url: string;
  /** CSS selector of the element that counts as "first question" (or main content). */
  ready: string;
  storage?: Record<string, string>;
  /**
   * A repeat visit: the page is loaded once unthrottled, until its service worker controls it, and
   * the timed load is the reload that follows, served from the browser's caches and the worker.
   */
  repeat?: boolean;
}

async function timeOnce(browser: Browser, pageCase: PageCase): Promise<Timing> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, hasTouch: true });
  try {
    if (pageCase.storage) {
      await context.addInitScript((entries: Record<string, string>) => {
        for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
      }, pageCase.storage);
    }
    // A string, not a function: tsx names inner functions with a helper the page does not have.
    await context.addInitScript(`
      new MutationObserver((records, observer) => {
        if (document.querySelector(${JSON.stringify(pageCase.ready)})) {
          window.__ready = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    `);
    const page = await context.newPage();
    if (pageCase.repeat) {
      await page.goto(pageCase.url, { waitUntil: "load" });
      await page.waitForFunction(
        () => "__ready" in window && navigator.serviceWorker.controller !== null,
        undefined,
        {
          timeout: 60_000,
        },
      );
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuSlowdown });
    await page.goto(pageCase.url, { waitUntil: "load" });
    try {
      await page.waitForFunction(() => "__ready" in window, undefined, { timeout: 60_000 });
    } catch (error) {
      console.error(`${pageCase.name}: ${pageCase.ready} never appeared at ${page.url()}`);
      console.error((await page.content()).slice(0, 4000));
      throw error;
    }
    return await page.evaluate(
      () =>
        new Promise<Timing>((done) => {
          const ready = (window as unknown as { __ready: number }).__ready;
          new PerformanceObserver((list, observer) => {
            const entry = list.getEntriesByName("first-contentful-paint")[0];
            if (entry) {
              observer.disconnect();
              done({ fcp: entry.startTime, firstQuestion: ready });
            }
          }).observe({ type: "paint", buffered: true });
        }),
    );
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(0);

async function main(): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), "core-care-bench-"));
  try {
    console.log("Building the web app, the SurveyJS runner and a bare React page with Vite…");
    const appDir = join(out, "app");
    const appManifest = await viteBuild(join(webRoot, "vite.config.ts"), webRoot, appDir);
    const sjsDir = join(out, "surveyjs");
    const sjsManifest = await viteBuild(
      join(webRoot, "bench/surveyjs/vite.config.ts"),
      join(webRoot, "bench/surveyjs"),
      sjsDir,
    );
    const bareDir = join(out, "bare");
    const bareManifest = await viteBuild(
      join(webRoot, "bench/bare/vite.config.ts"),
      join(webRoot, "bench/bare"),
      bareDir,
    );

    // Everything tablet.html names counts, the routes it preloads included, not only its entry.
    const tabletFiles = [
      ...new Set([...staticClosure(appManifest, [TABLET_PAGE]), ...pageFiles(appDir, TABLET_PAGE)]),
    ];
    const bundles = [
      measure("tablet route", appDir, tabletFiles.sort()),
      measure("SurveyJS runner", sjsDir, staticClosure(sjsManifest, ["index.html"])),
      measure("bare React", bareDir, staticClosure(bareManifest, ["index.html"])),
    ];

    const session: TabletSession = {
      patientId: "b".repeat(24),
      surveyId: benchSurvey.id,
      clientRequestId: "c".repeat(24),
      resultId: null,
      answers: {},
      pageIndex: 0,
      unsent: null,
      lastActivityAt: Date.now() + 3_600_000,
    };
    const servers = await Promise.all(bundles.map((bundle) => serve(bundle.dir)));
    const tabletUrl = `/tablet/patient-survey/${benchSurvey.id}/pg/1`;
    const storage = { [TABLET_SESSION_KEY]: JSON.stringify(session) };
    const cases: PageCase[] = [
      { name: "tablet route", url: `${servers[0]?.origin}${tabletUrl}`, ready: ".sv-question", storage },
      {
        name: "tablet, repeat visit",
        url: `${servers[0]?.origin}${tabletUrl}`,
        ready: ".sv-question",
        storage,
        repeat: true,
      },
      { name: "SurveyJS runner", url: `${servers[1]?.origin}/`, ready: ".sd-question" },
      { name: "bare React", url: `${servers[2]?.origin}/`, ready: "h1" },
    ];

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
    });
    const samples = new Map<string, Timing[]>(cases.map((c) => [c.name, []]));
    try {
      for (const pageCase of cases) await timeOnce(browser, pageCase);
      for (let run = 0; run < runs; run++) {
        for (const pageCase of cases) samples.get(pageCase.name)?.push(await timeOnce(browser, pageCase));
      }
    } finally {
      await browser.close();
      for (const { server } of servers) server.close();
    }

    const fcps = (name: string) => (samples.get(name) ?? []).map((t) => t.fcp);
    const fcp = (name: string) => median(fcps(name));
    const bestFcp = (name: string) => Math.min(...fcps(name));
    const ready = (name: string) => median((samples.get(name) ?? []).map((t) => t.firstQuestion));
    const bareFcp = fcp("bare React");

    console.log(
      `\nJS + CSS loaded before first render; Chromium, CPU ${cpuSlowdown}x slower, ${runs} loads each, cold but for the repeat visit (median; best in brackets)\n`,
    );
    const header = [
      "",
      "files",
      "raw KiB",
      "gzip KiB",
      "brotli KiB",
      "FCP ms",
      "FCP / bare",
      "(best ms)",
      "(best / bare)",
      "first question ms",
    ];
    const timings = (name: string) => [
      ms(fcp(name)),
      (fcp(name) / bareFcp).toFixed(2),
      ms(bestFcp(name)),
      (bestFcp(name) / bestFcp("bare React")).toFixed(2),
      name === "bare React" ? "-" : ms(ready(name)),
    ];
    const rows = bundles.map((bundle) => [
      bundle.name,
      String(bundle.files.length),
      kib(bundle.raw),
      kib(bundle.gzip),
      kib(bundle.brotli),
      ...timings(bundle.name),
    ]);
    // Its files come from the browser's cache and the service worker, so none is counted.
    rows.splice(1, 0, ["tablet, repeat visit", "-", "-", "-", "-", ...timings("tablet, repeat visit")]);
    const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => (row[i] ?? "").length)));
    const line = (row: string[]) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join("  ");
    console.log(line(header));
    for (const row of rows) console.log(line(row));

    const tablet = bundles[0] as Bundle;
    const ratio = fcp("tablet route") / bareFcp;
    const whole = measure("tablet page in all", appDir, staticClosure(appManifest, [TABLET_PAGE], true));
    console.log(`\nTablet files: ${tablet.files.join(", ")}`);
    console.log(
      `With the routes it loads after the first paint (router, picker, runner, engine): ${whole.files.length} files, ${kib(whole.raw)} KiB raw, ${kib(whole.gzip)} gzip, ${kib(whole.brotli)} brotli`,
    );
    console.log(
      `Target brotli <= ${targetBrotliKiB} KiB: ${kib(tablet.brotli)} KiB, ${tablet.brotli / 1024 <= targetBrotliKiB ? "met" : "MISSED"}`,
    );
    console.log(
      `Target FCP <= ${targetFcpRatio}x bare React: ${ratio.toFixed(2)}x, ${ratio <= targetFcpRatio ? "met" : "MISSED"}`,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

await main();

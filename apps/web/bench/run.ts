/**
 * Tablet runner benchmark: bytes the tablet page loads before its first question, beside a minimal
 * SurveyJS runner and a bare React page built the same way in the same run, and in Chromium with the
 * CPU throttled 4x on a cold cache: when each page's HTML has arrived (the server's answer), the frame
 * that draws the bare page's heading, and the frames that draw the tablet's first question (drawn by the
 * server), that follow its scripts' taking the page over (it answers taps from then) and that draw its
 * first answer, with each real built-in survey (all timed the same way), and the same build without its
 * server renderer for the difference. The tablet is the app's own build served by the real API server
 * (embedded PostgreSQL, demo data), loaded with a real hand-over's patient credential; the peers' builds
 * are served by the same server, compressed the same way. A repeat visit (browser cache and the tablet's
 * service worker) is timed too.
 *
 *   pnpm --filter @core-care/web bench        (BENCH_RUNS=9 for more samples, CHROMIUM_PATH to pick a browser)
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Browser, Page } from "@playwright/test";
import { build, type Manifest } from "vite";
import { BUILTIN_SURVEYS, type Survey } from "@core-care/survey-engine";
// The API's own choice of page, so the tablet route is measured on the page the server sends.
import { TABLET_PAGE } from "@core-care/schema/pages";
import { TABLET_RENDERER_DIR } from "@core-care/schema/paths";
import { precompress } from "../compress-build";
import { startApiServer, type ApiServer } from "./api-server";
import { launchBenchBrowser } from "./browser";
import { benchDesigner } from "./designer";
import { benchReport } from "./report";

const webRoot = resolve(import.meta.dirname, "..");
const runs = Number(process.env.BENCH_RUNS ?? 7);
const cpuSlowdown = 4;
const targetBrotliKiB = 100;
const targetRatio = 1.4;

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

interface Timing {
  /** The page's HTML fully received (the server's time to answer included). */
  html: number;
  fcp: number;
  /** The frame that draws the first question (the bare page: its heading). */
  ready: number;
  /**
   * The frame after which the first question answers taps: the page's scripts have taken over the
   * markup the server drew (until then the page is inert); for a page drawn in the browser, `ready`.
   */
  live: number;
  /** The frame that shows the first answer given as soon as the question was there; NaN when not tried. */
  input: number;
  /** Bytes over the wire (compressed) of the page and every file it fetched up to the first question. */
  bytes: number;
}

interface PageCase {
  name: string;
  url: string;
  /** CSS selector of the element that counts as the first question (or main content). */
  ready: string;
  /** The patient credential's cookie, for the tablet. */
  cookie?: string;
  /** Whether to answer the first question at once and time when the answer shows. */
  input?: boolean;
  /**
   * A repeat visit: the page is loaded once unthrottled, until its service worker controls it, and
   * the timed load is the reload that follows, served from the browser's caches and the worker.
   */
  repeat?: boolean;
}

/**
 * Answers the first question's first field the way a patient would: a tap on it, then for a text field a
 * key press. Raw input events at the field's place (one look-up, no waiting for actionability), so the
 * harness adds little work to the throttled page being timed.
 */
async function answerFirst(page: Page): Promise<void> {
  const target = await page.evaluate(() => {
    const field = document.querySelector(".sv-question :is(input, textarea, select)");
    if (!(field instanceof HTMLElement)) return null;
    const choice = field instanceof HTMLInputElement && (field.type === "radio" || field.type === "checkbox");
    // A choice is tapped on its label, as a finger would; the input itself may be drawn as a custom mark.
    const box = ((choice && field.closest("label")) || field).getBoundingClientRect();
    const keys = choice ? [] : field instanceof HTMLSelectElement ? ["ArrowDown", "Enter"] : ["5"];
    return { x: box.left + box.width / 2, y: box.top + box.height / 2, keys };
  });
  if (target === null) throw new Error("the first question has no field");
  await page.mouse.click(target.x, target.y);
  for (const key of target.keys) await page.keyboard.press(key);
}

async function timeOnce(browser: Browser, pageCase: PageCase): Promise<Timing> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, hasTouch: true });
  try {
    if (pageCase.cookie) {
      const [name = "", value = ""] = pageCase.cookie.split("=");
      await context.addCookies([{ name, value, url: pageCase.url }]);
    }
    // A string, not a function: tsx names inner functions with a helper the page does not have. The
    // times are taken after the frame that draws the element or the answer (a message posted from that
    // frame's animation callback runs once it is painted), the same way for every page, and told by a
    // console message: the harness does not poll the throttled page it is timing.
    await context.addInitScript(`
      const afterPaint = (name) => requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          window[name] = performance.now();
          console.debug("bench:" + name);
        };
        channel.port2.postMessage(null);
      });
      let drawn = false;
      new MutationObserver((records, observer) => {
        if (!drawn && document.querySelector(${JSON.stringify(pageCase.ready)})) {
          drawn = true;
          afterPaint("__ready");
        }
        if (drawn && document.querySelector("[inert]") === null) {
          observer.disconnect();
          afterPaint("__live");
        }
      }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["inert"] });
      for (const type of ["input", "change"]) {
        document.addEventListener(type, (event) => {
          if (window.__inputSeen || !event.target.closest || !event.target.closest(".sv-question")) return;
          window.__inputSeen = true;
          afterPaint("__input");
        }, true);
      }
    `);
    const page = await context.newPage();
    if (pageCase.repeat) {
      await page.goto(pageCase.url, { waitUntil: "load" });
      await page.waitForFunction(
        () => "__ready" in window && navigator.serviceWorker.controller !== null,
        undefined,
        { timeout: 60_000 },
      );
    }
    const told = (name: string) =>
      page.waitForEvent("console", {
        predicate: (message) => message.text() === `bench:${name}`,
        timeout: 60_000,
      });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuSlowdown });
    const ready = told("__ready");
    const live = told("__live");
    // Awaited below; should the page never draw, the failure is the first question's, not this one's.
    live.catch(() => undefined);
    await page.goto(pageCase.url, { waitUntil: "commit" });
    try {
      await ready;
    } catch (error) {
      console.error(`${pageCase.name}: ${pageCase.ready} never appeared at ${page.url()}`);
      console.error((await page.content()).slice(0, 4000));
      throw error;
    }
    // A tap on a page that does not answer taps yet would be lost: the patient's first tap is timed once
    // the page answers them.
    await live;
    if (pageCase.input) {
      const input = told("__input");
      await answerFirst(page);
      await input;
    }
    await page.waitForLoadState("load");
    return await page.evaluate(
      () =>
        new Promise<Timing>((done) => {
          const w = window as unknown as { __ready: number; __live: number; __input?: number };
          const entries = [
            ...performance.getEntriesByType("navigation"),
            ...performance.getEntriesByType("resource"),
          ] as PerformanceResourceTiming[];
          const bytes = entries
            .filter((entry) => entry.startTime <= w.__ready)
            .reduce((sum, entry) => sum + entry.encodedBodySize, 0);
          new PerformanceObserver((list, observer) => {
            const entry = list.getEntriesByName("first-contentful-paint")[0];
            if (entry) {
              observer.disconnect();
              const [navigation] = performance.getEntriesByType(
                "navigation",
              ) as PerformanceNavigationTiming[];
              done({
                html: navigation?.responseEnd ?? Number.NaN,
                fcp: entry.startTime,
                ready: w.__ready,
                live: w.__live,
                input: w.__input ?? Number.NaN,
                bytes,
              });
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
const ms = (value: number) => (Number.isNaN(value) ? "-" : value.toFixed(0));

/** Hands the tablet over for each built-in survey; answers each hand-over's patient credential. */
async function handOvers(api: ApiServer): Promise<{ survey: Survey; cookie: string }[]> {
  const staff = await api.login("staff@demo.test");
  const patient = await api.call<{ id: string }>(
    staff,
    "POST",
    "/api/patients",
    { mrn: `BENCH-${Date.now()}`, firstName: "Bench", lastName: "Tablet", dob: "1950-02-03", sex: "F" },
    201,
  );
  const out: { survey: Survey; cookie: string }[] = [];
  for (const survey of BUILTIN_SURVEYS) {
    // The hand-over ends the staff session it was made with: each one takes a sign-in of its own.
    const session = await api.login("staff@demo.test");
    const response = await fetch(`${api.origin}/api/tablet/handovers`, {
      method: "POST",
      headers: { cookie: session, "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
      body: JSON.stringify({ patientId: patient.id, surveyId: survey.id }),
    });
    const cookie = /sid=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0];
    if (response.status !== 201 || cookie === undefined) throw new Error(`hand-over: ${response.status}`);
    out.push({ survey, cookie });
  }
  return out;
}

async function benchTablet(out: string, appDir: string, appManifest: Manifest): Promise<void> {
  const closers: (() => Promise<void> | void)[] = [];
  try {
    console.log("Building the SurveyJS runner and a bare React page with Vite…");
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

    // Everything tablet.html names counts, the files it preloads included, not only its entry.
    const tabletFiles = [
      ...new Set([...staticClosure(appManifest, [TABLET_PAGE]), ...pageFiles(appDir, TABLET_PAGE)]),
    ];
    const bundles = [
      measure("tablet page", appDir, tabletFiles.sort()),
      measure("SurveyJS runner", sjsDir, staticClosure(sjsManifest, ["index.html"])),
      measure("bare React", bareDir, staticClosure(bareManifest, ["index.html"])),
    ];

    console.log("Starting the API server on the build (embedded PostgreSQL, demo data)…");
    const api = await startApiServer(appDir);
    closers.push(() => api.stop());
    const tablets = await handOvers(api);
    // The same build without its server renderer: the tablet page drawn in the browser alone, as before
    // the server drew its first page, for the difference in the same run.
    const undrawnDir = join(out, "app-undrawn");
    cpSync(appDir, undrawnDir, { recursive: true });
    rmSync(join(undrawnDir, TABLET_RENDERER_DIR), { recursive: true, force: true });
    const undrawn = await startApiServer(undrawnDir);
    closers.push(() => undrawn.stop());
    const [undrawnFirst] = await handOvers(undrawn);
    // The peers are served by the same server, as the app is: their files compressed at build time.
    const peers: ApiServer[] = [];
    for (const dir of [sjsDir, bareDir]) {
      precompress(dir);
      const server = await startApiServer(dir);
      closers.push(() => server.stop());
      peers.push(server);
    }

    const tabletUrl = (survey: Survey) => `${api.origin}/tablet/patient-survey/${survey.id}/pg/1`;
    const first = tablets[0] as { survey: Survey; cookie: string };
    const cases: PageCase[] = [
      ...tablets.map(({ survey, cookie }) => ({
        name: `tablet: ${survey.title}`,
        url: tabletUrl(survey),
        ready: ".sv-question",
        cookie,
        input: true,
      })),
      {
        name: `tablet, drawn in the browser only: ${undrawnFirst?.survey.title}`,
        url: `${undrawn.origin}/tablet/patient-survey/${undrawnFirst?.survey.id}/pg/1`,
        ready: ".sv-question",
        cookie: undrawnFirst?.cookie ?? "",
        input: true,
      },
      {
        name: "tablet, repeat visit",
        url: tabletUrl(first.survey),
        ready: ".sv-question",
        cookie: first.cookie,
        input: true,
        repeat: true,
      },
      { name: "SurveyJS runner (6 questions)", url: `${peers[0]?.origin}/`, ready: ".sd-question" },
      { name: "bare React", url: `${peers[1]?.origin}/`, ready: "h1" },
    ];

    const browser = await launchBenchBrowser();
    closers.unshift(() => browser.close());
    const samples = new Map<string, Timing[]>(cases.map((c) => [c.name, []]));
    for (const pageCase of cases) await timeOnce(browser, pageCase);
    for (let run = 0; run < runs; run++) {
      for (const pageCase of cases) samples.get(pageCase.name)?.push(await timeOnce(browser, pageCase));
    }

    const of = (name: string, key: keyof Timing) => median((samples.get(name) ?? []).map((t) => t[key]));
    // The bare page's heading drawn, timed as the tablet's first question is.
    const bare = of("bare React", "ready");
    console.log(
      `\nChromium, CPU ${cpuSlowdown}x slower, ${runs} loads each, cold cache but for the repeat visit (medians); ` +
        `load average ${loadavg()
          .map((n) => n.toFixed(2))
          .join(" ")}\n`,
    );
    const header = [
      "",
      "wire KiB",
      "HTML ms",
      "FCP ms",
      "drawn ms",
      "/ bare",
      "answers taps ms",
      "/ bare",
      "first input ms",
      "/ bare",
    ];
    const rows = cases.map((c) => [
      c.name,
      c.repeat ? "-" : kib(of(c.name, "bytes")),
      ms(of(c.name, "html")),
      ms(of(c.name, "fcp")),
      ms(of(c.name, "ready")),
      (of(c.name, "ready") / bare).toFixed(2),
      ms(of(c.name, "live")),
      (of(c.name, "live") / bare).toFixed(2),
      ms(of(c.name, "input")),
      c.input ? (of(c.name, "input") / bare).toFixed(2) : "-",
    ]);
    printTable(header, rows);

    console.log(
      `\nJS + CSS before the first question (built files; over the wire the server sends brotli)\n`,
    );
    printTable(
      ["", "files", "raw KiB", "gzip KiB", "brotli KiB"],
      bundles.map((b) => [b.name, String(b.files.length), kib(b.raw), kib(b.gzip), kib(b.brotli)]),
    );
    const tablet = bundles[0] as Bundle;
    console.log(`\nTablet files: ${tablet.files.join(", ")}`);
    console.log(
      `Target brotli <= ${targetBrotliKiB} KiB: ${kib(tablet.brotli)} KiB, ${tablet.brotli / 1024 <= targetBrotliKiB ? "met" : "MISSED"}`,
    );
    for (const { survey } of tablets) {
      const ratio = of(`tablet: ${survey.title}`, "ready") / bare;
      console.log(
        `Target first question drawn <= ${targetRatio}x bare React's heading drawn, ${survey.title}: ${ratio.toFixed(2)}x, ${ratio <= targetRatio ? "met" : "MISSED"}`,
      );
    }
  } finally {
    for (const close of closers) await close();
  }
}

/** BENCH_ONLY=tablet|designer|report runs one part; all three by default. */
async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  const out = mkdtempSync(join(tmpdir(), "core-care-bench-"));
  try {
    console.log("Building the web app with Vite…");
    const appDir = join(out, "app");
    const appManifest = await viteBuild(join(webRoot, "vite.config.ts"), webRoot, appDir);
    // The tablet's server renderer beside it, as the web build puts it (package.json's build script).
    await build({
      configFile: join(webRoot, "vite.server.config.ts"),
      root: webRoot,
      logLevel: "warn",
      build: { outDir: join(appDir, TABLET_RENDERER_DIR), emptyOutDir: true },
    });
    if (only === undefined || only === "tablet") await benchTablet(out, appDir, appManifest);
    if (only === undefined || only === "designer") await benchDesigner(appDir);
    if (only === undefined || only === "report") await benchReport(appDir);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => (row[i] ?? "").length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

await main();

/**
 * Survey designer benchmark: a page of 200 questions beside one of 16, in the same run, in Chromium
 * against the real API server: the time until the last question's editor is on the page, the DOM's
 * size, and the latency of each keystroke typed into a question's title (from the key press to the
 * frame that shows it), with the writes to browser storage counted while typing.
 */
import { loadavg } from "node:os";
import type { Browser } from "@playwright/test";
import {
  createCondition,
  createPage,
  createQuestion,
  createSurvey,
  type Question,
  type QuestionType,
  type Survey,
} from "@core-care/survey-engine";
import { launchBenchBrowser } from "./browser";
import { startApiServer, type ApiServer } from "./api-server";

const KEYS = Number(process.env.BENCH_DESIGNER_KEYS ?? 60);
const ROUNDS = Number(process.env.BENCH_DESIGNER_ROUNDS ?? 3);
/** A fast typist's pace: a key every 80 ms. */
const KEY_DELAY_MS = 80;
const TARGET_P95_MS = 50;
const TYPES: QuestionType[] = ["text", "radio", "checkbox", "select", "number", "yesno", "textarea", "scale"];

/** A survey of one page of `count` questions of every kind, every tenth shown on a condition. */
export function bigSurvey(count: number): Survey {
  const questions: Question[] = [];
  for (let i = 0; i < count; i++) {
    const type = TYPES[i % TYPES.length] ?? "text";
    const choices =
      type === "radio" || type === "checkbox" || type === "select"
        ? Array.from({ length: 4 + (i % 3) }, (_, c) => ({ value: String(c + 1), label: `Choice ${c + 1}` }))
        : undefined;
    const previous = questions[i - 1];
    questions.push(
      createQuestion(type, {
        fieldName: `q${i + 1}`,
        title: `Question ${i + 1}: how often does this happen?`,
        required: i % 2 === 0,
        ...(choices ? { choices } : {}),
        ...(type === "scale" ? { min: 0, max: 10 } : {}),
        ...(i % 10 === 9 && previous
          ? { visibleWhen: [createCondition({ fieldName: previous.fieldName, action: "Has Response" })] }
          : {}),
      }),
    );
  }
  return createSurvey({
    title: `Designer benchmark, ${count} questions`,
    pages: [createPage({ title: "Everything", questions })],
    version: 0,
  });
}

interface DesignerTiming {
  editableMs: number;
  domNodes: number;
  /** From each key press to the frame that shows it. */
  keys: number[];
  /** From each key press to the end of the work it caused on the page's thread (events and rendering). */
  work: number[];
  storageWrites: number;
}

async function timeDesigner(browser: Browser, api: ApiServer, cookie: string, survey: Survey) {
  const [name = "", value = ""] = cookie.split("=");
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await context.addCookies([{ name, value, url: api.origin }]);
    // A string, not a function: tsx names inner functions with a helper the page does not have.
    const count = survey.pages[0]?.questions.length ?? 0;
    await context.addInitScript(`
      (function watch() {
        if (document.querySelectorAll("fieldset.designer-question").length >= ${count}) {
          window.__editable = performance.now();
        } else {
          requestAnimationFrame(watch);
        }
      })();
      window.__keys = [];
      window.__writes = 0;
      const setItem = Storage.prototype.setItem;
      Storage.prototype.setItem = function (key, value) {
        window.__writes += 1;
        return setItem.call(this, key, value);
      };
      window.__work = [];
      document.addEventListener("keydown", (event) => {
        const start = event.timeStamp;
        const began = performance.now();
        setTimeout(() => window.__work.push(performance.now() - began), 0);
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => window.__keys.push(performance.now() - start);
          channel.port2.postMessage(0);
        });
      }, true);
    `);
    const page = await context.newPage();
    await page.goto(`${api.origin}/surveys/${survey.id}`);
    // Timed in the page, from the navigation's start, and waited for with CSS only: Playwright's role
    // and label queries walk the whole document on the page's own thread, thousands of nodes here.
    await page.waitForFunction(() => "__editable" in window, undefined, { timeout: 120_000, polling: 100 });
    const editableMs = await page.evaluate(() =>
      Math.round((window as unknown as { __editable: number }).__editable),
    );
    await page.focus(`fieldset.designer-question[aria-label="Question ${count}"] textarea`);
    const domNodes = await page.evaluate(() => document.getElementsByTagName("*").length);
    await page.evaluate(() => {
      const w = window as unknown as { __keys: number[]; __work: number[]; __writes: number };
      w.__keys = [];
      w.__work = [];
      w.__writes = 0;
    });
    await page.keyboard.type("x".repeat(KEYS), { delay: KEY_DELAY_MS });
    await page.waitForFunction((n) => (window as unknown as { __keys: number[] }).__keys.length >= n, KEYS);
    const { keys, work, writes } = await page.evaluate(() => {
      const w = window as unknown as { __keys: number[]; __work: number[]; __writes: number };
      return { keys: w.__keys, work: w.__work, writes: w.__writes };
    });
    // The local copy is kept once typing pauses.
    await page.waitForFunction(() => (localStorage.getItem("survey") ?? "").includes("xxxxxxxx"), undefined, {
      timeout: 10_000,
    });
    return { editableMs, domNodes, keys, work, storageWrites: writes } satisfies DesignerTiming;
  } finally {
    await context.close();
  }
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export async function benchDesigner(appDir: string): Promise<void> {
  console.log("\nSurvey designer: 200 questions on a page beside 16…");
  const api = await startApiServer(appDir);
  const browser = await launchBenchBrowser();
  try {
    const admin = await api.login("admin@demo.test");
    const sizes = [16, 200];
    const surveys = sizes.map((count) => bigSurvey(count));
    for (const survey of surveys) {
      await api.call(admin, "POST", `/api/surveys/${survey.id}`, survey);
      // One load to warm the server and the browser's cache of the app's files.
      await timeDesigner(browser, api, admin, survey);
    }
    // The sizes take turns, so that both meet the same load of the machine; their keys are pooled.
    const pooled = sizes.map(() => ({
      editable: [] as number[],
      nodes: 0,
      keys: [] as number[],
      work: [] as number[],
      writes: [] as number[],
    }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, survey] of surveys.entries()) {
        const timing = await timeDesigner(browser, api, admin, survey);
        const into = pooled[i];
        if (into === undefined) continue;
        into.editable.push(timing.editableMs);
        into.nodes = timing.domNodes;
        into.keys.push(...timing.keys);
        into.work.push(...timing.work);
        into.writes.push(timing.storageWrites);
      }
    }
    const rows = pooled.map((p, i) => [
      `${sizes[i]} questions`,
      quantile(p.editable, 0.5).toFixed(0),
      String(p.nodes),
      quantile(p.keys, 0.5).toFixed(0),
      quantile(p.keys, 0.95).toFixed(0),
      Math.max(...p.keys).toFixed(0),
      quantile(p.work, 0.5).toFixed(1),
      quantile(p.work, 0.95).toFixed(1),
      `${Math.max(...p.writes)} / ${KEYS}`,
    ]);
    const p95At200 = quantile(pooled[1]?.keys ?? [], 0.95);
    console.log(
      `\nChromium (no throttling), ${KEYS} keys typed into the last question's title, one every ${KEY_DELAY_MS} ms, ${ROUNDS} rounds pooled (medians of the load times); load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}\n`,
    );
    const header = [
      "page of",
      "until editable ms",
      "DOM nodes",
      "key p50 ms",
      "key p95 ms",
      "key max ms",
      "key work p50",
      "key work p95",
      "storage writes / keys (most)",
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
    const line = (r: string[]) =>
      r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
    console.log(line(header));
    for (const r of rows) console.log(line(r));
    const [small, big] = rows;
    console.log(
      `200 / 16 questions: key p95 ${(Number(big?.[4]) / Number(small?.[4])).toFixed(2)}x, key work p95 ${(Number(big?.[7]) / Number(small?.[7])).toFixed(2)}x`,
    );
    console.log(
      `Target: keystroke p95 <= ${TARGET_P95_MS} ms at 200 questions: ${p95At200.toFixed(0)} ms, ${p95At200 <= TARGET_P95_MS ? "met" : "MISSED"}`,
    );
  } finally {
    await browser.close();
    await api.stop();
  }
}

/*
 * Runs inside the report sandbox: an iframe with sandbox="allow-scripts allow-modals" (an opaque
 * origin: no cookies, no storage, no access to the portal's page) whose CSP allows no network. The
 * report's script itself runs in a Worker created here (`report-worker.ts`), inside a QuickJS
 * interpreter with a memory limit and a deadline, so a runaway script never blocks a page, never grows
 * the page's memory past its limit, and is stopped; the markup is rendered here from the model the
 * script returns, up to {@link REPORT_OUTPUT_MAX_CHARS}.
 */
import ReportWorker from "./report-worker.ts?worker&inline";
import type { FrameMessage, FrameRequest } from "./report-protocol";
import { megabytes, reportMemoryLimit, reportModelLimit, type ReportOutcome } from "./report-runner";
import { OutputTooLargeError, renderTemplate } from "./report-template";
import type { WorkerRequest } from "./report-worker";

/** The longest rendered report, in characters of HTML. */
export const REPORT_OUTPUT_MAX_CHARS = 16 * 1024 * 1024;
/** How long past its deadline the Worker may take to answer before it is ended from here. */
const WORKER_GRACE_MS = 1_000;

function post(message: FrameMessage): void {
  window.parent.postMessage(message, "*");
}

let worker: Worker | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

function stop(): void {
  worker?.terminate();
  worker = null;
  if (timer !== undefined) clearTimeout(timer);
}

function reportHeight(): void {
  post({ type: "height", height: document.documentElement.scrollHeight });
}

function run(request: Extract<FrameRequest, { type: "run" }>): void {
  stop();
  const timeLimit = `The report script ran longer than ${request.timeoutMs / 1000} seconds and was stopped.`;
  const memoryBytes = reportMemoryLimit(request.data.byteLength);
  try {
    worker = new ReportWorker();
  } catch (error) {
    post({ type: "error", message: `The report sandbox could not start: ${String(error)}` });
    return;
  }
  timer = setTimeout(() => {
    stop();
    post({ type: "error", message: timeLimit });
  }, request.timeoutMs + WORKER_GRACE_MS);
  worker.onerror = (event) => {
    event.preventDefault();
    stop();
    post({ type: "error", message: `The report script failed: ${event.message || "it could not be run."}` });
  };
  worker.onmessage = (event: MessageEvent<ReportOutcome>) => {
    stop();
    const outcome = event.data;
    if (!outcome.ok) {
      post({ type: "error", message: stopped(outcome, timeLimit, memoryBytes) });
      return;
    }
    try {
      const html = renderTemplate(request.markup, JSON.parse(outcome.model), REPORT_OUTPUT_MAX_CHARS);
      document.body.innerHTML = html;
      post({ type: "done", html });
      reportHeight();
    } catch (error) {
      post({
        type: "error",
        message:
          error instanceof OutputTooLargeError
            ? `The report's output was longer than ${megabytes(error.limit)} million characters and was stopped.`
            : `The markup could not be rendered: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  };
  const message: WorkerRequest = {
    script: request.script,
    data: request.data,
    timeoutMs: request.timeoutMs,
    memoryBytes,
    modelChars: reportModelLimit(request.data.byteLength),
  };
  worker.postMessage(message, [request.data]);
}

/** What the portal shows for a run that did not finish. */
function stopped(
  outcome: Extract<ReportOutcome, { ok: false }>,
  timeLimit: string,
  memoryBytes: number,
): string {
  switch (outcome.reason) {
    case "memory":
      return `The report script used too much memory (more than ${megabytes(memoryBytes)} MB) and was stopped.`;
    case "length":
      return "The report script used too much memory (a string longer than the sandbox allows) and was stopped.";
    case "time":
      return timeLimit;
    case "output":
      return `The report script's result was too large and was stopped: ${outcome.error}.`;
    case "script":
      return `The report script failed: ${outcome.error}`;
  }
}

window.addEventListener("message", (event: MessageEvent<FrameRequest>) => {
  if (event.source !== window.parent) return;
  const request = event.data;
  switch (request.type) {
    case "run":
      run(request);
      break;
    case "print":
      window.print();
      break;
  }
});

post({ type: "ready" });

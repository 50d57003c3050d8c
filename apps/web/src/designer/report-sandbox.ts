import frameScriptUrl from "./report-frame.ts?worker&url";
import { isFrameMessage, REPORT_STYLE, type FrameRequest } from "./report-protocol";

/** How long a report script may run before the sandbox is torn down. */
export const REPORT_TIMEOUT_MS = 5_000;
/** Extra time the sandbox frame gets to load before it counts as stuck. */
const FRAME_START_MS = 5_000;

/**
 * The sandbox document: an opaque origin (the iframe's sandbox has no allow-same-origin) whose CSP
 * forbids every network request and allows one script, the sandbox's own, plus the blob Worker it
 * makes for the report script and the WebAssembly interpreter that Worker compiles (`'wasm-unsafe-eval'`
 * allows compiling WebAssembly only, never JavaScript from a string). The portal's own CSP applies too
 * and must allow `worker-src blob:` and `'wasm-unsafe-eval'`.
 */
export function sandboxDocument(origin: string, scriptUrl: string = frameScriptUrl): string {
  const src = new URL(scriptUrl, origin).href;
  const policy = `default-src 'none'; script-src ${src} 'wasm-unsafe-eval'; worker-src blob:; style-src 'unsafe-inline'; img-src data:; form-action 'none'`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy}"><style>${REPORT_STYLE}</style></head><body><script src="${src}"></script></body></html>`;
}

/**
 * Runs untrusted report scripts for one place on the page: each run gets a fresh sandboxed iframe in
 * `container` that shows the rendered report; a run that outlives its time limit is torn down.
 */
export class ReportSandbox {
  private frame: HTMLIFrameElement | null = null;
  private cleanup: (() => void) | null = null;

  constructor(
    private readonly container: HTMLElement,
    private readonly timeoutMs: number = REPORT_TIMEOUT_MS,
  ) {}

  /** Runs `script` over `data` and renders `markup` with its result; resolves to the report's HTML. */
  run(script: string, markup: string, data: unknown): Promise<string> {
    this.dispose();
    // Only the bytes are kept while the frame starts: the data's objects can go as soon as the caller lets them.
    let bytes: ArrayBuffer | null = new TextEncoder().encode(JSON.stringify(data) ?? "null").buffer;
    const frame = document.createElement("iframe");
    frame.setAttribute("sandbox", "allow-scripts allow-modals");
    frame.setAttribute("title", "Report output");
    frame.className = "report-frame";
    frame.srcdoc = sandboxDocument(window.location.origin);
    this.frame = frame;

    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      let started = false;
      const timer = setTimeout(() => {
        const message = started
          ? `The report script ran longer than ${this.timeoutMs / 1000} seconds and was stopped.`
          : "The report sandbox could not start; the page's security policy may not allow it.";
        settle(() => reject(new Error(message)));
        this.dispose();
      }, this.timeoutMs + FRAME_START_MS);
      const onMessage = (event: MessageEvent) => {
        if (event.source !== frame.contentWindow || !isFrameMessage(event.data)) return;
        const message = event.data;
        switch (message.type) {
          case "ready": {
            if (settled) return;
            started = true;
            if (bytes === null) return;
            const request: FrameRequest = {
              type: "run",
              script,
              markup,
              data: bytes,
              timeoutMs: this.timeoutMs,
            };
            frame.contentWindow?.postMessage(request, "*", [bytes]);
            bytes = null;
            break;
          }
          case "height":
            frame.style.height = `${Math.min(Math.max(message.height + 16, 160), 4000)}px`;
            break;
          case "done":
            settle(() => resolve(message.html));
            break;
          case "error":
            settle(() => reject(new Error(message.message)));
            if (message.message.includes("was stopped")) this.dispose();
            break;
        }
      };
      this.cleanup = () => {
        clearTimeout(timer);
        window.removeEventListener("message", onMessage);
        settle(() => reject(new Error("The report run was replaced.")));
      };
      window.addEventListener("message", onMessage);
      this.container.replaceChildren(frame);
    });
  }

  /** Prints the rendered report alone, with its print stylesheet. */
  print(): void {
    const request: FrameRequest = { type: "print" };
    this.frame?.contentWindow?.postMessage(request, "*");
  }

  /** Removes the sandbox frame, stopping anything still running in it. */
  dispose(): void {
    this.cleanup?.();
    this.cleanup = null;
    this.frame?.remove();
    this.frame = null;
  }
}

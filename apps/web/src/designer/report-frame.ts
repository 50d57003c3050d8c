/*
 * Runs inside the report sandbox: an iframe with sandbox="allow-scripts allow-modals" (an opaque
 * origin: no cookies, no storage, no access to the portal's page) whose CSP allows no network. The
 * report's script itself runs in a Worker created here, so a runaway script never blocks a page and
 * can be stopped; the markup is rendered here from the model the script returns.
 */
import { renderTemplate } from "./report-template";
import type { FrameMessage, FrameRequest } from "./report-protocol";

const WORKER_PRELUDE = `"use strict";
self.onmessage = function (event) {
  var send = function (message) { self.postMessage(message); };
  var fail = function (error) {
    send({ ok: false, error: String(error && error.message ? error.message : error) });
  };
  try {
    var data = JSON.parse(new TextDecoder().decode(event.data));
    var model = self.__report(data);
    Promise.resolve(model).then(function (value) {
      try {
        send({ ok: true, model: value === undefined ? data : JSON.parse(JSON.stringify(value)) });
      } catch (error) {
        fail(error);
      }
    }, fail);
  } catch (error) {
    fail(error);
  }
};
`;

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
  const source = `${WORKER_PRELUDE}\nself.__report = function (data) {\n${request.script}\n};\n`;
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    worker = new Worker(url);
  } catch (error) {
    post({ type: "error", message: `The report sandbox could not start: ${String(error)}` });
    return;
  } finally {
    URL.revokeObjectURL(url);
  }
  timer = setTimeout(() => {
    stop();
    post({
      type: "error",
      message: `The report script ran longer than ${request.timeoutMs / 1000} seconds and was stopped.`,
    });
  }, request.timeoutMs);
  worker.onerror = (event) => {
    event.preventDefault();
    stop();
    post({ type: "error", message: `The report script failed: ${event.message || "it could not be run."}` });
  };
  worker.onmessage = (event: MessageEvent<{ ok: boolean; model?: unknown; error?: string }>) => {
    stop();
    if (!event.data.ok) {
      post({ type: "error", message: `The report script failed: ${event.data.error ?? ""}` });
      return;
    }
    try {
      const html = renderTemplate(request.markup, event.data.model);
      document.body.innerHTML = html;
      post({ type: "done", html });
      reportHeight();
    } catch (error) {
      post({
        type: "error",
        message: `The markup could not be rendered: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  };
  worker.postMessage(request.data, [request.data]);
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

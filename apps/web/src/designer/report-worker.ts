/*
 * The report script's Worker, made by the sandbox frame from a Blob (`?worker&inline`, so it needs no
 * network). It holds the QuickJS interpreter (its WebAssembly built into this file) and runs the script
 * in it within the run's time and memory limits (`report-runner.ts`); the frame ends the Worker after
 * every run.
 */
import { loadInterpreter, runReportScript, type ReportOutcome } from "./report-runner";

/** What the frame sends its Worker: the script, the data's JSON as UTF-8 bytes, and the run's limits. */
export interface WorkerRequest {
  script: string;
  data: ArrayBuffer;
  timeoutMs: number;
  memoryBytes: number;
  modelChars: number;
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  const answer = (outcome: ReportOutcome) => self.postMessage(outcome);
  loadInterpreter(request.memoryBytes).then(
    (module) => {
      try {
        answer(
          runReportScript(module, {
            script: request.script,
            json: new TextDecoder().decode(request.data),
            timeoutMs: request.timeoutMs,
            memoryBytes: request.memoryBytes,
            modelChars: request.modelChars,
          }),
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        answer({ ok: false, reason: /memory|\bOOM\b/i.test(message) ? "memory" : "script", error: message });
      }
    },
    (error: unknown) =>
      answer({ ok: false, reason: "script", error: `the interpreter did not start: ${String(error)}` }),
  );
};

/*
 * Runs one report script in a QuickJS interpreter compiled to WebAssembly, whose whole heap is one
 * WebAssembly.Memory made for the run with a fixed maximum. Everything the script makes (objects,
 * arrays, strings, closures, the data it parses) lives in that memory, and the browser cannot grow it past
 * its maximum: the interpreter's allocator then fails and the script gets "out of memory", so a script
 * that allocates without end is stopped with the page's memory intact. (QuickJS's own malloc limit is set
 * too, but it does not count every allocation: an array's elements grew to 2 GB past a 16 MB limit; the
 * memory's maximum is what holds.) An interrupt handler stops the script at its deadline. The script
 * sees only the language itself: no DOM, no network, no timers, no `self`, nothing of the page.
 */
import variant from "@jitl/quickjs-singlefile-browser-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";

/** The most a report script's interpreter may allocate, whatever its data. */
export const REPORT_MEMORY_MAX_BYTES = 1024 * 1024 * 1024;
/** What a report script may allocate besides its data. */
export const REPORT_MEMORY_BASE_BYTES = 64 * 1024 * 1024;
/** The longest model (as JSON characters) a script may hand back besides its data's size. */
export const REPORT_MODEL_BASE_CHARS = 16 * 1024 * 1024;

/**
 * The interpreter's memory limit for a run over `dataBytes` of JSON: the base plus room to parse and
 * copy the data (its objects take several times its text), never more than {@link REPORT_MEMORY_MAX_BYTES}.
 */
export function reportMemoryLimit(dataBytes: number): number {
  return Math.min(REPORT_MEMORY_MAX_BYTES, REPORT_MEMORY_BASE_BYTES + 6 * dataBytes);
}

/** The longest model JSON a run over `dataBytes` may return: the base plus twice the data. */
export function reportModelLimit(dataBytes: number): number {
  return REPORT_MODEL_BASE_CHARS + 2 * dataBytes;
}

/** WebAssembly's page size. */
const WASM_PAGE = 65_536;
/** The interpreter's memory before the script allocates (its initial size, as the module is built). */
const INTERPRETER_INITIAL_BYTES = 16 * 1024 * 1024;

/**
 * A QuickJS interpreter whose memory can never grow past `memoryBytes` plus its initial 16 MB (the
 * interpreter's own code data and stack), for one run.
 */
export async function loadInterpreter(memoryBytes: number): Promise<Interpreter> {
  const maximum = Math.ceil((INTERPRETER_INITIAL_BYTES + memoryBytes) / WASM_PAGE);
  const wasmMemory = new WebAssembly.Memory({ initial: INTERPRETER_INITIAL_BYTES / WASM_PAGE, maximum });
  const module = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory }));
  // Near its maximum when the allocator can no longer grow it (within the largest step it may ask for).
  const exhausted = () => wasmMemory.buffer.byteLength >= 0.75 * maximum * WASM_PAGE;
  return { module, exhausted };
}

/** A QuickJS module for one run, and whether its memory has been used up. */
export interface Interpreter {
  module: QuickJSWASMModule;
  exhausted(): boolean;
}

/** Megabytes (or millions of characters, 2^20) as the messages say them. */
export const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

export interface ReportRun {
  script: string;
  /** The data's JSON. */
  json: string;
  timeoutMs: number;
  memoryBytes: number;
  modelChars: number;
}

/** Why a run stopped, or its model as JSON. */
export type ReportOutcome =
  | { ok: true; model: string }
  | { ok: false; reason: "memory" | "length" | "time" | "output" | "script"; error: string };

const RUNNER = (script: string) => `"use strict";
(function () {
  var data = JSON.parse(globalThis.__reportData);
  delete globalThis.__reportData;
  var model = (function (data) {
${script}
  })(data);
  return Promise.resolve(model).then(function (value) {
    var json = JSON.stringify(value === undefined ? data : value);
    return json === undefined ? "null" : json;
  });
})()`;

function describe(context: QuickJSContext, handle: QuickJSHandle): string {
  try {
    const error: unknown = context.dump(handle);
    if (typeof error === "object" && error !== null) {
      const { name, message } = error as { name?: unknown; message?: unknown };
      if (typeof message === "string") return typeof name === "string" ? `${name}: ${message}` : message;
    }
    return String(error);
  } catch {
    return "out of memory";
  }
}

function failure(message: string, interpreter: Interpreter): ReportOutcome {
  // Out of memory, QuickJS may throw null: it has no room left to make the error.
  if (interpreter.exhausted() && (message === "null" || message === "out of memory"))
    return { ok: false, reason: "memory", error: "out of memory" };
  if (/out of memory|\bOOM\b/i.test(message)) return { ok: false, reason: "memory", error: message };
  // A string past the interpreter's 2^30 characters (a doubling string reaches it in 30 steps).
  if (/string too long/i.test(message)) return { ok: false, reason: "length", error: message };
  if (/^InternalError: interrupted/.test(message)) return { ok: false, reason: "time", error: message };
  return { ok: false, reason: "script", error: message };
}

/**
 * Runs `run.script` over `run.json` in a fresh QuickJS runtime of `quickjs` (one from
 * {@link loadInterpreter} for `run.memoryBytes`), within its limits.
 */
export function runReportScript(interpreter: Interpreter, run: ReportRun): ReportOutcome {
  const runtime = interpreter.module.newRuntime();
  try {
    runtime.setMemoryLimit(run.memoryBytes);
    const deadline = Date.now() + run.timeoutMs;
    runtime.setInterruptHandler(() => Date.now() > deadline);
    const context = runtime.newContext();
    try {
      const json = context.newString(run.json);
      context.setProp(context.global, "__reportData", json);
      json.dispose();
      const result = context.evalCode(RUNNER(run.script), "report.js");
      if (result.error) {
        const message = describe(context, result.error);
        result.error.dispose();
        return failure(message, interpreter);
      }
      const promise = result.value;
      try {
        for (;;) {
          const jobs = runtime.executePendingJobs();
          if (jobs.error) {
            const message = describe(context, jobs.error);
            jobs.error.dispose();
            return failure(message, interpreter);
          }
          if (jobs.value === 0) break;
        }
        const state = context.getPromiseState(promise);
        if (state.type === "pending")
          return {
            ok: false,
            reason: "script",
            error: "its promise never settled (report scripts have no timers or network to wait for)",
          };
        if (state.type === "rejected") {
          const message = describe(context, state.error);
          state.error.dispose();
          return failure(message, interpreter);
        }
        const value = state.value;
        try {
          const length = context.getProp(value, "length");
          const chars = context.getNumber(length);
          length.dispose();
          if (chars > run.modelChars)
            return {
              ok: false,
              reason: "output",
              error: `its result is ${megabytes(chars)} million characters of JSON, more than the ${megabytes(run.modelChars)} allowed`,
            };
          return { ok: true, model: context.getString(value) };
        } finally {
          value.dispose();
        }
      } finally {
        promise.dispose();
      }
    } finally {
      release(context);
    }
  } finally {
    release(runtime);
  }
}

/** Frees an interpreter's context or runtime; one left broken by running out of memory is left to go with its Worker. */
function release(resource: { dispose(): void }): void {
  try {
    resource.dispose();
  } catch {
    // The Worker that holds it is ended after every run.
  }
}

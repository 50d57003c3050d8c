import fp from "fastify-plugin";
import { errorCodes } from "fastify";
import type { FieldError } from "@core-care/schema";
import { AppError, fieldError } from "../errors.js";
import { EntryBudget } from "../services/entry-budget.js";
import { JSON_BODY_LIMITS, JsonShapeScanner, shapeMessage } from "./json-shape.js";
import { callerKey } from "./rate-limit.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The body came from the JSON parser below, which measured its shape and held its text. */
    bodyGuarded: boolean;
  }
}

/**
 * Deeper than any document the portal keeps (a survey's pages, panels and questions nest a few
 * levels). Walking or storing JSON thousands of levels deep exhausts a stack: in the validator, or in
 * PostgreSQL's JSONB parser.
 */
export const MAX_JSON_DEPTH = JSON_BODY_LIMITS.depth;

const NUL_MESSAGE = "Must not contain the character U+0000.";
const SURROGATE_MESSAGE = "Must be valid Unicode text (it holds a lone surrogate).";
const DEPTH_MESSAGE = `Must not nest deeper than ${MAX_JSON_DEPTH} levels.`;

/**
 * Why PostgreSQL could not store a string, if it could not: text and JSONB hold no U+0000, and a lone
 * UTF-16 surrogate is not Unicode (JSONB refuses its escape; text would store U+FFFD instead).
 */
export function badTextReason(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return NUL_MESSAGE;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return SURROGATE_MESSAGE;
    } else if (code >= 0xdc00 && code <= 0xdfff) return SURROGATE_MESSAGE;
  }
  return undefined;
}

/** What the walk found: the keys to it, innermost first, and why; `whole` names the root itself. */
interface Found {
  keys: string[];
  message: string;
  whole: boolean;
}

/**
 * The first bad text at or below `value`, `level` keys below the root. Recursion no deeper than
 * {@link MAX_JSON_DEPTH}, and nothing allocated until something is found (the path is gathered on the
 * way back up).
 */
function walk(value: unknown, level: number): Found | undefined {
  if (typeof value === "string") {
    const reason = badTextReason(value);
    return reason === undefined ? undefined : { keys: [], message: reason, whole: false };
  }
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value)) return undefined;
  if (level >= MAX_JSON_DEPTH) return { keys: [], message: DEPTH_MESSAGE, whole: true };
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = walk(value[index], level + 1);
      if (found !== undefined) {
        if (!found.whole) found.keys.push(String(index));
        return found;
      }
    }
    return undefined;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const reason = badTextReason(key);
    // A bad key is named by its parent: the key itself is no text to echo.
    if (reason !== undefined) return { keys: [], message: reason, whole: false };
    const found = walk(object[key], level + 1);
    if (found !== undefined) {
      if (!found.whole) found.keys.push(key);
      return found;
    }
  }
  return undefined;
}

/**
 * The first field of a parsed body, query or params that no route may store: text PostgreSQL cannot
 * hold (in a value or a key) or nesting deeper than {@link MAX_JSON_DEPTH}. `root` names the whole value
 * ("body").
 */
export function firstBadField(value: unknown, root: string): FieldError | undefined {
  const found = walk(value, 0);
  if (found === undefined) return undefined;
  const field = found.whole || found.keys.length === 0 ? root : found.keys.reverse().join(".");
  return { field, message: found.message };
}

const isStream = (value: unknown) =>
  typeof value === "object" && value !== null && typeof (value as { pipe?: unknown }).pipe === "function";

/** Scanners not in use: one is taken for each JSON body while it arrives (bodies arrive interleaved). */
const idleScanners: JsonShapeScanner[] = [];
const takeScanner = () => idleScanners.pop()?.reset() ?? new JsonShapeScanner(JSON_BODY_LIMITS);
const giveScanner = (scanner: JsonShapeScanner) => {
  if (idleScanners.length < 64) idleScanners.push(scanner);
};

const tooMuchJson = (seconds: number) =>
  new AppError(
    429,
    "RATE_LIMITED",
    "Too much data sent in a short time. Please wait a moment and try again.",
    {
      headers: { "Retry-After": String(seconds) },
    },
  );

/**
 * Refuses, before any validation or handler, input no route may store: 400 naming the field.
 *
 * JSON bodies come through a parser of its own, which measures their shape on their bytes as they
 * arrive (plugins/json-shape.ts: depth, keys and elements in all and per object or array) and refuses a
 * body at the first count past a limit, without reading the rest of it; the same pass tells whether any
 * string in it is text PostgreSQL cannot hold, so that only such a body is walked to name the field. A
 * body within the limits is charged to its client's budget of JSON to build (services/entry-budget.ts;
 * 429 with Retry-After when spent), then decoded and parsed by Fastify's own parser.
 */
export default fp(
  async (app) => {
    app.decorateRequest("bodyGuarded", false);
    const budget = new EntryBudget();
    // secure-json-parse: a `__proto__` or `constructor.prototype` key is refused, as by Fastify's default.
    const parseJson = app.getDefaultJsonParser("error", "error");
    app.removeContentTypeParser("application/json");
    app.addContentTypeParser("application/json", (request, payload, done) => {
      const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
      const declared = Number(request.headers["content-length"]);
      if (declared > limit) {
        done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
        return;
      }
      const scanner = takeScanner();
      const chunks: Buffer[] = [];
      let received = 0;
      let settled = false;
      const settle = (error: Error | null, value?: unknown) => {
        if (settled) return;
        settled = true;
        payload.removeListener("data", onData);
        payload.removeListener("end", onEnd);
        payload.removeListener("error", onEnd);
        giveScanner(scanner);
        done(error, value);
      };
      const onData = (piece: Buffer | string) => {
        const chunk = typeof piece === "string" ? Buffer.from(piece) : piece;
        received += chunk.length;
        if (received > limit) return settle(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        const at = scanner.push(chunk);
        if (at < 0) return settle(fieldError("body", shapeMessage(at, JSON_BODY_LIMITS)));
        chunks.push(chunk);
      };
      const onEnd = (error?: Error & { statusCode?: number }) => {
        if (error !== undefined) {
          if (!(typeof error.statusCode === "number" && error.statusCode >= 400)) error.statusCode = 400;
          return settle(error);
        }
        if (!Number.isNaN(declared) && received !== declared) {
          return settle(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        }
        scanner.end();
        const badText = scanner.badText;
        const wait = budget.charge(callerKey(request), scanner.entries);
        if (wait > 0) return settle(tooMuchJson(wait));
        const text =
          chunks.length === 1
            ? chunks[0]!.toString("utf8")
            : Buffer.concat(chunks, received).toString("utf8");
        void parseJson(request, text, (parseError, value) => {
          if (parseError instanceof Error) return settle(parseError);
          const bad = badText ? firstBadField(value, "body") : undefined;
          if (bad !== undefined) return settle(fieldError(bad.field, bad.message));
          request.bodyGuarded = true;
          settle(null, value);
        });
      };
      payload.on("data", onData);
      payload.on("end", onEnd);
      payload.on("error", onEnd);
      payload.resume();
    });

    app.addHook("preValidation", async (request) => {
      const check = (value: unknown, root: string) => {
        const bad = firstBadField(value, root);
        if (bad !== undefined) throw fieldError(bad.field, bad.message);
      };
      check(request.params, "params");
      check(request.query, "querystring");
      // A streamed body (the batch upload's CSV or NDJSON) is checked row by row as it is read.
      if (!request.bodyGuarded && !isStream(request.body)) check(request.body, "body");
    });
  },
  { name: "input-guard" },
);

import fp from "fastify-plugin";
import type { FieldError } from "@core-care/schema";
import { AppError } from "../errors.js";

/**
 * Deeper than any document the portal keeps (a survey's pages, panels and questions nest a few
 * levels). Walking or storing JSON thousands of levels deep exhausts a stack: in the validator, or in
 * PostgreSQL's JSONB parser.
 */
export const MAX_JSON_DEPTH = 64;

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

/**
 * The first field of a parsed body, query or params that no route may store: text PostgreSQL cannot
 * hold (in a value or a key) or nesting deeper than {@link MAX_JSON_DEPTH}. Walked with a stack of its
 * own, so that any depth is measured without recursion. `root` names the whole value ("body").
 */
export function firstBadField(value: unknown, root: string): FieldError | undefined {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  const name = (path: string[]) => (path.length === 0 ? root : path.join("."));
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as { value: unknown; path: string[] };
    if (typeof current === "string") {
      const reason = badTextReason(current);
      if (reason !== undefined) return { field: name(path), message: reason };
      continue;
    }
    if (typeof current !== "object" || current === null) continue;
    if (path.length >= MAX_JSON_DEPTH) return { field: root, message: DEPTH_MESSAGE };
    const entries = Array.isArray(current) ? current.entries() : Object.entries(current);
    for (const [key, child] of entries) {
      const keyText = String(key);
      const reason = badTextReason(keyText);
      // A bad key is named by its parent: the key itself is no text to echo.
      if (reason !== undefined) return { field: name(path), message: reason };
      stack.push({ value: child, path: [...path, keyText] });
    }
  }
  return undefined;
}

const isStream = (value: unknown) =>
  typeof value === "object" && value !== null && typeof (value as { pipe?: unknown }).pipe === "function";

/** Refuses, before any validation or handler, input no route may store: 400 naming the field. */
export default fp(
  async (app) => {
    app.addHook("preValidation", async (request) => {
      const parts: [unknown, string][] = [
        [request.params, "params"],
        [request.query, "querystring"],
        [request.body, "body"],
      ];
      for (const [value, root] of parts) {
        // A streamed body (the batch upload's CSV or NDJSON) is checked row by row as it is read.
        if (root === "body" && isStream(value)) continue;
        const bad = firstBadField(value, root);
        if (bad !== undefined) {
          throw new AppError(400, "BAD_REQUEST", `${bad.field}: ${bad.message}`, { errors: [bad] });
        }
      }
    });
  },
  { name: "input-guard" },
);

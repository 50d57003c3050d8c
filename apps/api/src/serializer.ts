import type { FastifyReply, FastifySerializerCompiler } from "fastify";
import { ResponseSerializationError } from "fastify-type-provider-zod";
import type { z } from "zod";
import { isProduction } from "./config.js";

/** A response value reduced to what its schema names. */
type Strip = (value: unknown) => unknown;

/** The parts of a zod schema's definition the stripper reads. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  coerce?: boolean;
  transform?: (value: unknown, payload: { value: unknown; issues: unknown[] }) => unknown;
  checks?: { _zod: { def: { check: string; tx?: (value: unknown) => unknown } } }[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The strip of a value kept as it is (a string, a number, an enum's member, …). */
const same: Strip = (value) => value;

/**
 * Whether a plain object has no key but those `named`: then an object schema whose every field is kept
 * as it is keeps the object as it is, and a list page's 200 rows built to the schema (as the services
 * build them) are not copied key by key through V8's slowest, megamorphic, keyed accesses.
 */
function namesOnly(value: Record<string, unknown>, named: Set<string>): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false; // a toJSON, a getter…
  for (const key of Object.keys(value)) if (!named.has(key)) return false;
  return true;
}

/**
 * Compiles a response schema into a function that keeps only the keys the schema names, at every
 * depth, without validating what it keeps: a list page of 200 rows is copied once (or kept as it is
 * when its rows have no other key, see namesOnly) instead of run through zod's checks (which took a
 * fifth of the API's time on the patients list). What it cannot copy faithfully it hands to zod, for
 * that part only: a default to fill in, a coerced value, a union (which member strips it depends on
 * validation), and every other kind of schema; a value zod would rewrite (a preprocess or transform, a
 * trim, a lower-casing) is rewritten the same way. Anything a wrong value reaches there fails as zod
 * fails.
 */
export function compileStrip(schema: z.ZodType): Strip {
  const def = defOf(schema);
  const viaZod: Strip = (value) => schema.parse(value);
  switch (def.type) {
    case "object": {
      // A loose or strict object (catchall set) keeps or refuses unknown keys: zod decides.
      if (def.catchall !== undefined) return viaZod;
      const fields = Object.entries(def.shape ?? {}).map(
        ([key, field]) => [key, compileStrip(field)] as const,
      );
      const named = new Set(fields.map(([key]) => key));
      const flat = fields.every(([, strip]) => strip === same);
      return (value) => {
        if (!isRecord(value)) return viaZod(value);
        if (flat && namesOnly(value, named)) return value;
        const out: Record<string, unknown> = {};
        for (const [key, strip] of fields) {
          const kept = strip(value[key]);
          if (kept !== undefined) out[key] = kept;
        }
        return out;
      };
    }
    case "array": {
      const strip = compileStrip(def.element!);
      return (value) => (Array.isArray(value) ? value.map((item) => strip(item)) : viaZod(value));
    }
    case "optional": {
      const strip = compileStrip(def.innerType!);
      if (strip === same) return same;
      return (value) => (value === undefined ? undefined : strip(value));
    }
    case "nullable": {
      const strip = compileStrip(def.innerType!);
      if (strip === same) return same;
      return (value) => (value === null ? null : strip(value));
    }
    case "readonly": {
      return compileStrip(def.innerType!);
    }
    case "default":
    case "prefault":
    case "nonoptional": {
      const strip = compileStrip(def.innerType!);
      return (value) => (value === undefined ? viaZod(value) : strip(value));
    }
    case "pipe": {
      // Both ends in turn (z.preprocess is a transform piped into its schema; .pipe() two schemas).
      const first = compileStrip(def.in!);
      const then = compileStrip(def.out!);
      return (value) => then(first(value));
    }
    case "transform": {
      // The function called as zod calls it; one that reports an issue or is async is left to zod.
      const transform = def.transform!;
      return (value) => {
        const payload = { value, issues: [] as unknown[] };
        try {
          const out = transform(value, payload);
          if (payload.issues.length === 0 && !(out instanceof Promise)) return out;
        } catch {
          // zod reports it below
        }
        return viaZod(value);
      };
    }
    case "string":
    case "number":
    case "bigint":
    case "boolean":
    case "date": {
      if (def.coerce === true) return viaZod;
      // Checks only look, but for the ones that rewrite the value (trim, toLowerCase): those are applied.
      const rewrites = (def.checks ?? []).flatMap((c) =>
        c._zod.def.check === "overwrite" ? [c._zod.def.tx!] : [],
      );
      if (rewrites.length === 0) return same;
      return (value) =>
        typeof value === (def.type === "date" ? "object" : def.type)
          ? rewrites.reduce((v, rewrite) => rewrite(v), value)
          : viaZod(value);
    }
    case "enum":
    case "literal":
    case "null":
    case "undefined":
    case "any":
    case "unknown":
      return same;
    default:
      return viaZod;
  }
}

/**
 * Outside production: `value` must parse by the route's response schema, and the parse written as JSON
 * must be exactly `text`, the answer about to be sent (`how` it was made, for the error).
 */
function holdToSchema(
  schema: z.ZodType,
  method: string,
  url: string,
  value: unknown,
  text: string,
  how: string,
) {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ResponseSerializationError(method, url, { cause: parsed.error });
  if (JSON.stringify(parsed.data) !== text)
    throw new Error(`the response of ${method} ${url} ${how} differs from its schema's parse of it`);
}

/**
 * Serialises responses with only the keys their zod schema names (no secret or internal column can
 * leak), by {@link compileStrip}. Outside production every response is also parsed by its schema, as the
 * serialiser did before, and must come out the same: the test suites hold every route's answers to
 * their schemas and the stripper to zod's own result.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema, method, url }) => {
  const strip = compileStrip(schema);
  const checked = !isProduction();
  return (data) => {
    let kept: unknown;
    try {
      kept = strip(data);
    } catch (cause) {
      // What zod refused, as the serialiser reported it before (a ZodError for a wrong value).
      throw new ResponseSerializationError(method, url, { cause: cause as z.ZodError });
    }
    const text = JSON.stringify(kept);
    if (checked) holdToSchema(schema, method, url, data, text, "kept by its schema");
    return text;
  };
};

/**
 * Answers JSON text a service wrote itself (a results page, straight from its rows:
 * services/survey-results.ts) as it is: Fastify sends a string of a JSON content type unserialised.
 * Outside production the text is held to the route's response schema as {@link serializerCompiler}
 * holds every other answer: it must parse by the schema to exactly the same JSON, so it names no key
 * the schema does not and writes each value as the schema keeps it.
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  if (!isProduction()) {
    const { method, url } = reply.request;
    const responses = reply.routeOptions.schema?.response as Record<string, z.ZodType> | undefined;
    const schema = responses?.[String(reply.statusCode)];
    if (schema === undefined)
      throw new Error(`${method} ${url} has no response schema for ${reply.statusCode}`);
    holdToSchema(schema, method, url, JSON.parse(text), text, "written as JSON");
  }
  return reply.type("application/json; charset=utf-8").send(text);
}

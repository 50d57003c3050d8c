import type { FastifyServerOptions } from "fastify";
import type { Config } from "./config.js";

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A request URL fit for a log line: the query string (search terms, Tele-AWV parameters) is dropped and
 * path segments holding an e-mail address are replaced, so no PHI reaches the log.
 */
export function redactUrl(url: string): string {
  const [path = "", query] = url.split("?", 2);
  const safePath = path
    .split("/")
    .map((segment) => (decodeSegment(segment).includes("@") ? ":email" : segment))
    .join("/");
  return query === undefined ? safePath : `${safePath}?[redacted]`;
}

/**
 * Removes the bound parameters a failed query's message carries (drizzle appends `params: …`, which can
 * hold names, answers or e-mails) and any e-mail address.
 */
export function scrubText(text: string): string {
  return text
    .replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/g, "\nparams: [redacted]")
    .replace(/[^\s"'<>@]+@[^\s"'<>@]+\.[A-Za-z]{2,}/g, "[email]");
}

/**
 * A database error's message with the value it quotes taken out: PostgreSQL echoes the offending input
 * (`invalid input syntax for type integer: "…"`), which may be PHI.
 */
const scrubDatabaseMessage = (message: string): string => message.replace(/: ".*"$/s, ': "[redacted]"');

const MAX_CAUSES = 4;

/**
 * An error as a log line may show it: type, code and scrubbed message and stack, and its causes (a
 * failed query's driver error) the same way, so a 500's line says why it failed.
 */
export function serializeError(
  err: unknown,
  depth = 0,
): {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
} {
  if (!(err instanceof Error)) return { type: typeof err, message: scrubText(String(err)), stack: "" };
  const code = (err as { code?: unknown }).code;
  const isDatabaseError = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code);
  const cause = (err as { cause?: unknown }).cause;
  return {
    type: err.name,
    ...(code === undefined ? {} : { code }),
    message: scrubText(isDatabaseError ? scrubDatabaseMessage(err.message) : err.message),
    stack: scrubText(isDatabaseError ? "" : (err.stack ?? "")),
    ...(cause === undefined || depth >= MAX_CAUSES ? {} : { cause: serializeError(cause, depth + 1) }),
  };
}

/** Logger options: request lines carry method, redacted URL and address only; secrets are censored. */
export function loggerOptions(
  config: Config,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions["logger"] {
  return {
    level: config.logLevel,
    ...(stream === undefined ? {} : { stream }),
    redact: {
      paths: [
        "req.headers.cookie",
        "req.headers.authorization",
        "password",
        "*.password",
        "email",
        "*.email",
      ],
      censor: "[redacted]",
    },
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === "string" ? scrubText(arg) : arg)) as Parameters<typeof method>,
        );
      },
    },
    serializers: {
      err: serializeError,
      req(request: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
      },
    },
  };
}

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
    serializers: {
      req(request: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
      },
    },
  };
}

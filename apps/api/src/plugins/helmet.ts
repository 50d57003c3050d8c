import type { IncomingMessage, ServerResponse } from "node:http";
import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";
import type { Config } from "../config.js";

/** Helmet's options: a content security policy that allows no eval and no inline scripts. */
export function helmetOptions(config: Config): Readonly<HelmetOptions> {
  const production = config.nodeEnv === "production";
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", "data:"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        imgSrc: ["'self'", "data:", "blob:"],
        objectSrc: ["'none'"],
        // 'wasm-unsafe-eval' lets the report sandbox's Worker compile its WebAssembly interpreter (the
        // report script runs inside it, in a heap of bounded size); it allows no eval of JavaScript.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        scriptSrcAttr: ["'none'"],
        // The report designer runs untrusted report scripts in a Worker made from a blob, inside a
        // sandboxed frame that inherits this policy.
        workerSrc: ["'self'", "blob:"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        ...(production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "no-referrer" },
  };
}

/**
 * The headers helmet sets for these options. None depends on the request (no nonces, no functions), so
 * helmet's middleware runs once, here, against a response that only records them.
 */
export function securityHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  if (headers["content-security-policy"] === undefined)
    throw new Error("helmet set no content security policy");
  return headers;
}

/**
 * Helmet's security headers on every response. @fastify/helmet would build helmet's middleware again for
 * each request, parsing the policy every time (about a tenth of a signed-in save's work, measured by the
 * load benchmark); these headers are the same for every request, so they are built once at start.
 */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    const headers = securityHeaders(helmetOptions(config));
    app.addHook("onRequest", (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: "helmet" },
);

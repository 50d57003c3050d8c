import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fp from "fastify-plugin";
import fastifyStatic from "@fastify/static";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import { notFound } from "../errors.js";
import { loadMe } from "../services/users.js";
import { APP_PAGE, escapeAttribute, pageFor, TABLET_PAGE, TABLET_SERVICE_WORKER } from "./html.js";

/** Puts the signed-in user and tenant as JSON in `data-user` / `data-tenant` of `<body>` (SPEC 3). */
export function injectBodyData(html: string, data: { user: unknown; tenant: unknown } | null): string {
  if (data === null) return html;
  const attrs = ` data-user="${escapeAttribute(JSON.stringify(data.user))}" data-tenant="${escapeAttribute(JSON.stringify(data.tenant))}"`;
  return html.replace(/<body([^>]*)>/i, (_m, rest: string) => `<body${rest}${attrs}>`);
}

const REPORT_FRAME_SCRIPT = /^\/assets\/report-frame-[\w-]+\.js$/;

/**
 * Serves the built web app from WEB_DIST and answers every other GET outside /api with one of its
 * pages, so client routes load on a full page request: tablet.html for the /tablet routes (when the
 * build has it), index.html for the rest. Unknown /api paths answer 404 in the error shape.
 */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    const hasWeb = existsSync(join(config.webDist, APP_PAGE));
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: config.webDist,
        index: false,
        wildcard: false,
        // Every file but the pages and the service worker (sent below) is named by its content's hash.
        immutable: true,
        maxAge: "365d",
        // Pages are only sent through serve() below, with the signed-in user put in.
        allowedPath: (pathName) =>
          pathName !== `/${APP_PAGE}` && pathName !== `/${TABLET_PAGE}` && !pathName.startsWith("/.vite/"),
      });
    }
    app.addHook("onSend", async (request, reply, payload) => {
      // The report sandbox frame has an opaque origin, so its one script must be loadable cross-origin.
      // It is public code that carries no data.
      if (REPORT_FRAME_SCRIPT.test(request.url)) reply.header("Cross-Origin-Resource-Policy", "cross-origin");
      // A tablet must learn of a new build's worker on its next visit, never keep an old one. Served
      // from the root, the worker may take the /tablet scope without a Service-Worker-Allowed header.
      if (request.url === TABLET_SERVICE_WORKER) reply.header("Cache-Control", "no-cache");
      return payload;
    });

    const pages = new Map<string, string>();
    const readPage = (url: string) => {
      const file = pageFor(url);
      const cached = pages.get(file);
      if (cached !== undefined && config.nodeEnv !== "development") return cached;
      const path = join(config.webDist, file);
      const html = readFileSync(existsSync(path) ? path : join(config.webDist, APP_PAGE), "utf8");
      pages.set(file, html);
      return html;
    };

    const serve = async (request: FastifyRequest, reply: FastifyReply) => {
      const me = request.auth === null ? null : await loadMe(app.db, request.auth);
      return reply
        .type("text/html; charset=utf-8")
        .header("Cache-Control", "no-store")
        .send(injectBodyData(readPage(request.url), me));
    };

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split("?", 1)[0] ?? "/";
      // A missing build file is not a client route: answered with a page, it could be cached as the file.
      if (
        path.startsWith("/api/") ||
        path === "/api" ||
        path.startsWith("/assets/") ||
        !hasWeb ||
        (request.method !== "GET" && request.method !== "HEAD")
      ) {
        throw notFound("Resource");
      }
      return serve(request, reply);
    });
  },
  { name: "web", dependencies: ["auth"] },
);

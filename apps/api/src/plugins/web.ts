import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fp from "fastify-plugin";
import fastifyStatic from "@fastify/static";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import { notFound } from "../errors.js";
import { loadMe } from "../services/users.js";
import { escapeAttribute, preloadLinks, TABLET_ENTRY, type ManifestChunk } from "./html.js";

/** Puts the signed-in user and tenant as JSON in `data-user` / `data-tenant` of `<body>` (SPEC 3). */
export function injectBodyData(html: string, data: { user: unknown; tenant: unknown } | null): string {
  if (data === null) return html;
  const attrs = ` data-user="${escapeAttribute(JSON.stringify(data.user))}" data-tenant="${escapeAttribute(JSON.stringify(data.tenant))}"`;
  return html.replace(/<body([^>]*)>/i, (_m, rest: string) => `<body${rest}${attrs}>`);
}

const REPORT_FRAME_SCRIPT = /^\/assets\/report-frame-[\w-]+\.js$/;

/**
 * Serves the built web app from WEB_DIST and answers every other GET outside /api with its index.html,
 * so client routes load on a full page request. Unknown /api paths answer 404 in the error shape.
 */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    const indexFile = join(config.webDist, "index.html");
    const hasWeb = existsSync(indexFile);
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: config.webDist,
        index: false,
        wildcard: false,
        allowedPath: (pathName) => pathName !== "/index.html" && !pathName.startsWith("/.vite/"),
      });
    }
    // The report sandbox frame has an opaque origin, so its one script must be loadable cross-origin.
    // It is public code that carries no data.
    app.addHook("onSend", async (request, reply, payload) => {
      if (REPORT_FRAME_SCRIPT.test(request.url)) reply.header("Cross-Origin-Resource-Policy", "cross-origin");
      return payload;
    });

    let cachedIndex: string | undefined;
    const readIndex = () => (cachedIndex ??= readFileSync(indexFile, "utf8"));
    const manifestFile = join(config.webDist, ".vite", "manifest.json");
    const tabletLinks = existsSync(manifestFile)
      ? preloadLinks(
          JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, ManifestChunk>,
          TABLET_ENTRY,
        )
      : "";

    const serveIndex = async (request: FastifyRequest, reply: FastifyReply) => {
      const me = request.auth === null ? null : await loadMe(app.db, request.auth);
      let html = config.nodeEnv === "development" ? readFileSync(indexFile, "utf8") : readIndex();
      if (tabletLinks !== "" && /^\/tablet(\/|$|\?)/.test(request.url)) {
        html = html.replace("</head>", `${tabletLinks}</head>`);
      }
      return reply
        .type("text/html; charset=utf-8")
        .header("Cache-Control", "no-store")
        .send(injectBodyData(html, me));
    };

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split("?", 1)[0] ?? "/";
      if (
        path.startsWith("/api/") ||
        path === "/api" ||
        !hasWeb ||
        (request.method !== "GET" && request.method !== "HEAD")
      ) {
        throw notFound("Resource");
      }
      return serveIndex(request, reply);
    });
  },
  { name: "web", dependencies: ["auth"] },
);

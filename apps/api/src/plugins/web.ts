import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fp from "fastify-plugin";
import fastifyStatic from "@fastify/static";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import { notFound } from "../errors.js";
import { loadMe } from "../services/users.js";

/** Escapes text for a double-quoted HTML attribute. */
export function escapeAttribute(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/** Puts the signed-in user and tenant as JSON in `data-user` / `data-tenant` of `<body>` (SPEC 3). */
export function injectBodyData(html: string, data: { user: unknown; tenant: unknown } | null): string {
  if (data === null) return html;
  const attrs = ` data-user="${escapeAttribute(JSON.stringify(data.user))}" data-tenant="${escapeAttribute(JSON.stringify(data.tenant))}"`;
  return html.replace(/<body([^>]*)>/i, (_m, rest: string) => `<body${rest}${attrs}>`);
}

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
        allowedPath: (pathName) => pathName !== "/index.html",
      });
    }
    let cachedIndex: string | undefined;
    const readIndex = () => (cachedIndex ??= readFileSync(indexFile, "utf8"));

    const serveIndex = async (request: FastifyRequest, reply: FastifyReply) => {
      const me = request.auth === null ? null : await loadMe(app.db, request.auth);
      return reply
        .type("text/html; charset=utf-8")
        .header("Cache-Control", "no-store")
        .send(
          injectBodyData(
            config.nodeEnv === "development" ? readFileSync(indexFile, "utf8") : readIndex(),
            me,
          ),
        );
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

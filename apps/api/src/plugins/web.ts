import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fp from "fastify-plugin";
import fastifyStatic from "@fastify/static";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import { notFound } from "../errors.js";
import { sendCompressed } from "./compress.js";
import { getSurvey } from "../services/documents.js";
import { handoverState } from "../services/handovers.js";
import { loadMe } from "../services/users.js";
import { TABLET_RENDERER_DIR } from "@core-care/schema/paths";
import type { TabletCredential } from "./auth.js";
import {
  APP_PAGE,
  escapeAttribute,
  injectDrawnPage,
  injectTabletBoot,
  pageFor,
  TABLET_PAGE,
  TABLET_RENDERER,
  TABLET_SERVICE_WORKER,
  type DrawnTabletPage,
} from "@core-care/schema/pages";

/** The web build's tablet renderer (apps/web/src/tablet-server.tsx). */
interface TabletRenderer {
  drawTabletPage(url: string, boot: unknown): Promise<DrawnTabletPage | null>;
}

/**
 * Puts the signed-in user and tenant as JSON in `data-user` / `data-tenant` of `<body>` (SPEC 3), and what
 * the user may do there (`Me.may`, from the permission table) in `data-may`.
 */
export function injectBodyData(
  html: string,
  data: { user: unknown; tenant: unknown; may: unknown } | null,
): string {
  if (data === null) return html;
  const attrs = ` data-user="${escapeAttribute(JSON.stringify(data.user))}" data-tenant="${escapeAttribute(JSON.stringify(data.tenant))}" data-may="${escapeAttribute(JSON.stringify(data.may))}"`;
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
      // The build's files are routes of their own, one per file: each names the permission table's
      // `GET web-file` entry (public; they carry no data).
      await app.register(async (files) => {
        files.addHook("onRoute", (route) => {
          route.config = { ...route.config, permission: "GET web-file" };
        });
        await files.register(fastifyStatic, {
          root: config.webDist,
          index: false,
          wildcard: false,
          // Every file but the pages and the service worker (sent below) is named by its content's hash.
          immutable: true,
          maxAge: "365d",
          // The build writes file.br and file.gz beside each file (apps/web/compress-build.ts); the copy the
          // client accepts is sent, the file itself otherwise.
          preCompressed: true,
          // Pages are only sent through serve() below, with the signed-in user put in.
          // Nor the build's manifest and server renderer, which are the server's own.
          allowedPath: (pathName) =>
            pathName !== `/${APP_PAGE}` &&
            pathName !== `/${TABLET_PAGE}` &&
            !pathName.startsWith("/.vite/") &&
            !pathName.startsWith(`/${TABLET_RENDERER_DIR}/`),
        });
      });
    }
    app.addHook("onSend", async (request, reply, payload) => {
      // The report sandbox frame has an opaque origin, so its one script must be loadable cross-origin.
      // It is public code that carries no data.
      const route = request.routeOptions.url ?? "";
      if (REPORT_FRAME_SCRIPT.test(route)) reply.header("Cross-Origin-Resource-Policy", "cross-origin");
      // A tablet must learn of a new build's worker on its next visit, never keep an old one. Served
      // from the root, the worker may take the /tablet scope without a Service-Worker-Allowed header.
      if (route === TABLET_SERVICE_WORKER) reply.header("Cache-Control", "no-cache");
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

    /**
     * What a tablet page needs before its first question, put in the page for the patient credential:
     * the hand-over (as GET /api/tablet/handover answers it) and its survey (as GET /api/surveys/:id).
     * Nothing for anyone else, and nothing when either cannot be read (the page then asks the API).
     */
    const tabletBoot = async (tablet: TabletCredential) => {
      try {
        const [handover, survey] = await Promise.all([
          handoverState(app.db, tablet, config.idleTimeoutSeconds),
          getSurvey(app.db, tablet.tenantId, tablet.surveyId),
        ]);
        return { handover, survey };
      } catch (error) {
        app.log.warn({ err: error }, "the tablet page was sent without its hand-over");
        return null;
      }
    };

    // The tablet's first page is drawn here when the build has its renderer; without it, or should it
    // fail, the page renders in the browser alone, as it always can.
    const rendererPath = join(config.webDist, TABLET_RENDERER);
    const renderer: Promise<TabletRenderer | null> = existsSync(rendererPath)
      ? (import(pathToFileURL(rendererPath).href) as Promise<TabletRenderer>).catch((error: unknown) => {
          app.log.warn({ err: error }, "the tablet's server renderer could not be loaded");
          return null;
        })
      : Promise.resolve(null);
    const draw = async (url: string, boot: { handover: unknown; survey: unknown }) => {
      try {
        return (await (await renderer)?.drawTabletPage(url, boot)) ?? null;
      } catch (error) {
        // The error alone: the patient's name and answers are in the page, never in the log.
        app.log.warn(
          { err: { message: error instanceof Error ? error.message : "unknown" } },
          "the tablet page was sent undrawn",
        );
        return null;
      }
    };

    const serve = async (request: FastifyRequest, reply: FastifyReply) => {
      const me = request.auth === null ? null : await loadMe(app.db, request.auth);
      const file = pageFor(request.url);
      let html = injectBodyData(readPage(request.url), me);
      if (file === TABLET_PAGE && request.tablet !== null) {
        const boot = await tabletBoot(request.tablet);
        if (boot !== null) {
          const drawn = await draw(request.url, boot);
          if (drawn !== null) html = injectDrawnPage(html, drawn);
          html = injectTabletBoot(html, boot);
        }
      }
      reply.type("text/html; charset=utf-8").header("Cache-Control", "no-store");
      return sendCompressed(request, reply, html);
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

// HTML helpers of the API's web plugin (apps/api/src/plugins/web.ts), in this package so the web's benchmark
// serves pages exactly as the API does without importing the API's source.
import { isTabletPath, TABLET_BOOT_ID, TABLET_DRAWN_ATTRIBUTE, TABLET_RENDERER_DIR } from "./paths.js";

export { TABLET_BOOT_ID };

/** Escapes text for a double-quoted HTML attribute. */
export function escapeAttribute(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/** The staff app's page: every client route but the tablet's. */
export const APP_PAGE = "index.html";

/** The tablet's own page (issue 5: a small bundle for first content on an old tablet). */
export const TABLET_PAGE = "tablet.html";

/** The tablet's service worker, at the root of the site so that its scope may be /tablet. */
export const TABLET_SERVICE_WORKER = "/tablet-sw.js";

/** The page of the web build that answers a client route. */
export function pageFor(url: string): string {
  return isTabletPath(url) ? TABLET_PAGE : APP_PAGE;
}

/**
 * JSON for a `<script type="application/json">` block: nothing in it can end the block or open a
 * comment or another tag (`<`, `>` and `&` are written as \u escapes, which JSON.parse reads back).
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Puts `data` in the page as the JSON block the tablet's page reads instead of asking for it, so the
 * first question needs no request after the page's own files.
 */
export function injectTabletBoot(html: string, data: unknown): string {
  const block = `<script type="application/json" id="${TABLET_BOOT_ID}">${scriptJson(data)}</script>`;
  return html.replace(/<\/body>/i, () => `${block}</body>`);
}

/** The tablet's server renderer in the web build (apps/web/vite.server.config.ts); never served. */
export const TABLET_RENDERER = `${TABLET_RENDERER_DIR}/tablet-server.js`;

/** The tablet's first page drawn on the server (apps/web/src/tablet-server.tsx). */
export interface DrawnTabletPage {
  html: string;
  language: string;
}

/**
 * Puts the tablet's first page, drawn on the server, in the page's empty root, inert until the page's
 * scripts take it over, and says its language on `<html>`. The page is left as it is when its root is
 * not the empty one the build writes.
 */
export function injectDrawnPage(html: string, drawn: DrawnTabletPage): string {
  const root = /<div id="root"><\/div>/;
  if (!root.test(html) || !/^[a-z]{2}$/.test(drawn.language)) return html;
  return html
    .replace(root, () => `<div id="root" ${TABLET_DRAWN_ATTRIBUTE} inert>${drawn.html}</div>`)
    .replace(/<html lang="[^"]*"/i, () => `<html lang="${drawn.language}"`);
}

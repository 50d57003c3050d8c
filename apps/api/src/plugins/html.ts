// HTML helpers of the web plugin, free of the server's dependencies so a benchmark can serve pages exactly
// as the API does.
import { isTabletPath } from "@core-care/schema/paths";

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

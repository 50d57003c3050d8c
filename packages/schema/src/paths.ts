// Which page of the web app answers a path, shared by the server that serves it and the app that moves
// between them; with no zod, so the tablet's small bundle can import it.

/** True for the /tablet routes of SPEC 2 (with or without a query), which the tablet's own page answers. */
export function isTabletPath(path: string): boolean {
  return /^\/tablet(?:[/?#]|$)/.test(path);
}

/**
 * The id of the `<script type="application/json">` block in which the server puts, on the tablet's page
 * for a patient credential, the hand-over and its survey, so the page shows the first question without
 * asking for them.
 */
export const TABLET_BOOT_ID = "tablet-boot";

/**
 * The attribute the server sets, with `inert`, on the tablet page's root when it has drawn the first page
 * of a new session in it: the page shows the first question before its scripts have run, and answers taps
 * once they have taken the markup over.
 */
export const TABLET_DRAWN_ATTRIBUTE = "data-drawn";

/**
 * The folder of the web build that holds the tablet's server renderer (apps/web/vite.server.config.ts
 * builds it, the API imports it and never serves the folder).
 */
export const TABLET_RENDERER_DIR = ".server";

// Which page of the web app answers a path, shared by the server that serves it and the app that moves
// between them; with no zod, so the tablet's small bundle can import it.

/** True for the /tablet routes of SPEC 2 (with or without a query), which the tablet's own page answers. */
export function isTabletPath(path: string): boolean {
  return /^\/tablet(?:[/?#]|$)/.test(path);
}

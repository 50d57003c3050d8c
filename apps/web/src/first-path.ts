/**
 * The path the server answered with this document, captured when the main bundle starts (before any
 * area is loaded on demand), so an unknown path can tell a client-side move from a server answer.
 */
export const FIRST_DOCUMENT_PATH = typeof window === "undefined" ? "" : window.location.pathname;

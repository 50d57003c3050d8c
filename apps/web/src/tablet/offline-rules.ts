// The rules of the tablet's service worker (./service-worker.ts). Only the worker imports this
// module, so the build keeps the worker one self-contained script.

/** Prefix of the worker's cache names; the caches of other builds are deleted when a worker activates. */
export const CACHE_PREFIX = "core-care-tablet-";

/** The cache of one build, named after its files (FNV-1a), so no build ever reads another's. */
export function cacheName(files: readonly string[]): string {
  let hash = 0x811c9dc5;
  for (const char of files.join("\n")) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return `${CACHE_PREFIX}${(hash >>> 0).toString(36)}`;
}

/**
 * How the worker answers a request:
 * - `page`: a page under the worker's scope: from the network, and only when the network fails,
 *   the stored page (which never carries a user);
 * - `file`: one of the build's files of the tablet page: from the cache;
 * - `network`: everything else, the /api/ calls above all, which the worker never touches.
 */
export type Answer = "page" | "file" | "network";

/** The {@link Answer} for a request, given the worker's scope URL and the build's files (paths). */
export function answerFor(
  request: { method: string; mode: string; url: string },
  scope: string,
  files: ReadonlySet<string>,
): Answer {
  if (request.method !== "GET") return "network";
  const url = new URL(request.url);
  const home = new URL(scope);
  if (url.origin !== home.origin || url.pathname.startsWith("/api/")) return "network";
  if (request.mode === "navigate") {
    const inScope = url.pathname === home.pathname || url.pathname.startsWith(`${home.pathname}/`);
    return inScope ? "page" : "network";
  }
  return files.has(url.pathname) ? "file" : "network";
}

/**
 * True when a page carries a signed-in user (the `<body data-user data-tenant>` of SPEC 3) or data of
 * any JSON block (a patient's hand-over and survey, put in for the patient credential); such a page is
 * never stored, so the cache holds nothing of a user or a patient. (No import: the worker stays one
 * script.)
 */
export function carriesUser(html: string): boolean {
  return (
    /<body\b[^>]*\sdata-(?:user|tenant)\s*=/i.test(html) ||
    /<script\b[^>]*\stype\s*=\s*["']?application\/json/i.test(html)
  );
}

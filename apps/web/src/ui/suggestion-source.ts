/** Typeahead defaults (SPEC 7, 9). */
export const TYPEAHEAD = {
  limit: 5,
  minLength: 1,
  debounceMs: 300,
  cacheSize: 10,
  maxParallel: 6,
  ttlMs: 24 * 60 * 60 * 1000,
} as const;

/** The query placeholder of a suggestion URL template. */
export const QUERY_PLACEHOLDER = "{query}";

/**
 * A typeahead's remote URL (SPEC 7): `template` with every {@link QUERY_PLACEHOLDER} replaced by the
 * URL-encoded query, as in `suggestionUrl("/api/patients?q={query}&limit=5", "ann")`.
 */
export function suggestionUrl(template: string, query: string): string {
  return template.replaceAll(QUERY_PLACEHOLDER, encodeURIComponent(query));
}

/** Options of {@link createSuggestionSource}. */
export interface SuggestionSourceOptions<T> {
  fetch: (query: string) => Promise<T[]>;
  cacheSize?: number;
  maxParallel?: number;
  ttlMs?: number;
  now?: () => number;
}

/** Fetches typeahead suggestions with a response cache and a cap on parallel requests. */
export interface SuggestionSource<T> {
  get: (query: string) => Promise<T[]>;
  /** Requests running now. */
  running: () => number;
}

/**
 * A suggestion source (SPEC 7): remembers the last `cacheSize` responses for `ttlMs`, shares one request
 * between callers of the same query and runs at most `maxParallel` requests at a time.
 */
export function createSuggestionSource<T>(options: SuggestionSourceOptions<T>): SuggestionSource<T> {
  const cacheSize = options.cacheSize ?? TYPEAHEAD.cacheSize;
  const maxParallel = options.maxParallel ?? TYPEAHEAD.maxParallel;
  const ttlMs = options.ttlMs ?? TYPEAHEAD.ttlMs;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { at: number; value: T[] }>();
  const inFlight = new Map<string, Promise<T[]>>();
  const waiting: (() => void)[] = [];
  let active = 0;

  const acquire = (): Promise<void> => {
    if (active < maxParallel) {
      active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };

  return {
    running: () => active,
    get(query) {
      const key = query.trim().toLowerCase();
      const hit = cache.get(key);
      if (hit && now() - hit.at < ttlMs) {
        cache.delete(key);
        cache.set(key, hit);
        return Promise.resolve(hit.value);
      }
      const pending = inFlight.get(key);
      if (pending) return pending;
      const request = acquire()
        .then(() => options.fetch(query.trim()))
        .then((value) => {
          cache.delete(key);
          cache.set(key, { at: now(), value });
          while (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
          return value;
        })
        .finally(() => {
          inFlight.delete(key);
          release();
        });
      inFlight.set(key, request);
      return request;
    },
  };
}

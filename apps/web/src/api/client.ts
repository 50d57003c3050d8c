import { createStore, useStore } from "./store";

/** How long the transient error banner stays up (SPEC 8, 9). */
export const ERROR_BANNER_MS = 10_000;
/** Length of the banner's fade-out before it is removed. */
export const BANNER_FADE_MS = 400;
/** The message a network failure carries; forms show it as {@link NO_NETWORK_MESSAGE} (SPEC 8). */
export const NETWORK_ERROR_MESSAGE = "error";
/** What a form's error area shows for a network failure (SPEC 8). */
export const NO_NETWORK_MESSAGE = "Error: No network connectivity";

/** A field-level problem reported by the server. */
export interface FieldError {
  field: string;
  message: string;
}

/** A failed API call: HTTP status (0 for a network failure), the server's message, error code and field errors. */
export class ApiError extends Error {
  status: number;
  errorCode?: number;
  errors?: FieldError[];

  constructor(status: number, message: string, errorCode?: number, errors?: FieldError[]) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    if (errorCode !== undefined) this.errorCode = errorCode;
    if (errors !== undefined) this.errors = errors;
  }
}

/** Per-call options. `handleErrors`: the caller deals with every failure (no logout on 401, no banner). */
export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  handleErrors?: boolean;
  signal?: AbortSignal;
  /** Headers beside the client's own, such as the Tele-AWV link's `Authorization`. */
  headers?: Record<string, string>;
}

/** The transient error banner's state. */
export interface BannerState {
  id: number;
  message: string;
  leaving: boolean;
}

const bannerStore = createStore<BannerState | null>(null);
const pendingStore = createStore(0);
let bannerSeq = 0;
let bannerTimers: ReturnType<typeof setTimeout>[] = [];

interface ClientConfig {
  baseUrl?: string;
  onUnauthorized: (returnTo: string) => void;
}

/** Where a 401 sends the browser: logout, then back to `returnTo` after signing in again (SPEC 4). */
export function logoutPath(returnTo: string): string {
  return `/auth/logout?redirect=${encodeURIComponent(returnTo)}`;
}

function goToLogout(returnTo: string): void {
  window.location.assign(logoutPath(returnTo));
}

const config: ClientConfig = { onUnauthorized: goToLogout };

/**
 * Adjusts the client: `baseUrl` to resolve paths against (defaults to the page's origin),
 * `onUnauthorized` to replace the full-page move to /auth/logout on a 401.
 */
export function configureClient(options: Partial<ClientConfig>): void {
  Object.assign(config, options);
}

/**
 * How many times this page has replaced its session (a practice switch, a hand-over): the server ends the
 * old session id at once, so a request sent under an earlier one and answered 401 afterwards speaks of
 * the old session, not of a lost one.
 */
let sessionGeneration = 0;
/** A replacement under way: where the first 401 that arrived meanwhile would have sent the user back to. */
let replacing: { returnTo: string | null } | null = null;

/** The session a request is sent under; give it to {@link sessionLost} with the request's 401. */
export function sessionMark(): number {
  return sessionGeneration;
}

/**
 * Whether a 401 to a request sent under `mark` means the user's session is gone. It does not when the
 * page has replaced the session since, nor while a replacement is under way (that 401 is held, and sends
 * the user to sign in again only if the replacement fails).
 */
export function sessionLost(mark: number): boolean {
  if (mark !== sessionGeneration) return false;
  if (replacing === null) return true;
  replacing.returnTo ??= currentLocation();
  return false;
}

/**
 * Runs `change`, a call that gives this browser a new session (a practice switch, a hand-over, the
 * staff's return from one). The page's other requests still in flight were sent with the old session,
 * which the server ends at once: their 401s do not sign the user out, unless `change` fails, when the
 * first of them does, as it would have.
 */
export async function replaceSession<T>(change: () => Promise<T>): Promise<T> {
  const replacement = { returnTo: null as string | null };
  replacing = replacement;
  try {
    const result = await change();
    sessionGeneration++;
    return result;
  } catch (error) {
    if (replacement.returnTo !== null) signOut(replacement.returnTo);
    throw error;
  } finally {
    if (replacing === replacement) replacing = null;
  }
}

/**
 * Sends the browser to sign in again, back to `returnTo` after. Not from an /auth/ page: later 401s of
 * requests that were in flight arrive after the move there and must not overwrite the location.
 */
function signOut(returnTo: string): void {
  if (!window.location.pathname.startsWith("/auth/")) config.onUnauthorized(returnTo);
}

/** The location to come back to after signing in again. */
export function currentLocation(): string {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

/** Shows the transient error banner with `message` for 10 seconds, replacing any banner shown. */
export function showErrorBanner(message: string): void {
  for (const timer of bannerTimers) clearTimeout(timer);
  const id = ++bannerSeq;
  bannerStore.set({ id, message, leaving: false });
  bannerTimers = [
    setTimeout(() => bannerStore.set({ id, message, leaving: true }), ERROR_BANNER_MS),
    setTimeout(() => bannerStore.set(null), ERROR_BANNER_MS + BANNER_FADE_MS),
  ];
}

/** Removes the error banner at once. */
export function dismissErrorBanner(): void {
  for (const timer of bannerTimers) clearTimeout(timer);
  bannerTimers = [];
  bannerStore.set(null);
}

/** Subscribes to the error banner; returns the unsubscribe function. */
export function subscribeBanner(listener: (state: BannerState | null) => void): () => void {
  return bannerStore.subscribe(listener);
}

/** The current error banner, or null. */
export function useErrorBanner(): BannerState | null {
  return useStore(bannerStore);
}

/** Number of API calls in flight. */
export function pendingRequests(): number {
  return pendingStore.get();
}

/** Subscribes to the count of API calls in flight; returns the unsubscribe function. */
export function subscribePending(listener: (count: number) => void): () => void {
  return pendingStore.subscribe(listener);
}

/** True while any API call runs (drives the 'Processing...' indicator). */
export function useProcessing(): boolean {
  return useStore(pendingStore) > 0;
}

/** The text a form's error area shows for a failure (SPEC 8: "error" becomes "Error: No network connectivity"). */
export function formErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  return message === NETWORK_ERROR_MESSAGE ? NO_NETWORK_MESSAGE : message;
}

function buildUrl(path: string, query: RequestOptions["query"]): string {
  const url = new URL(path, config.baseUrl ?? window.location.origin);
  if (query) {
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
  }
  return url.toString();
}

interface WireError {
  responseStatus?: { message?: unknown; errorCode?: unknown; errors?: unknown };
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === "") return undefined;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function toApiError(response: Response, body: unknown): ApiError {
  const status = (body as WireError | undefined)?.responseStatus;
  const message =
    typeof status?.message === "string" && status.message !== ""
      ? status.message
      : response.statusText || `HTTP ${response.status}`;
  const errorCode = typeof status?.errorCode === "number" ? status.errorCode : undefined;
  const errors = Array.isArray(status?.errors) ? (status.errors as FieldError[]) : undefined;
  return new ApiError(response.status, message, errorCode, errors);
}

/**
 * Sends a request and answers its response when it succeeded; otherwise throws the ApiError, after the
 * 401 move or the error banner unless the caller handles errors. The pending count (the 'Processing...'
 * indicator) covers `read` of the answer too.
 */
async function exchange<T>(
  method: string,
  path: string,
  body: unknown,
  opts: RequestOptions,
  accept: string,
  read: (response: Response) => Promise<T>,
): Promise<T> {
  const headers: Record<string, string> = {
    ...opts.headers,
    Accept: accept,
    "X-Requested-With": "XMLHttpRequest",
  };
  const init: RequestInit = { method, headers, credentials: "same-origin", cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (opts.signal) init.signal = opts.signal;

  pendingStore.set(pendingStore.get() + 1);
  const mark = sessionMark();
  try {
    let response: Response;
    try {
      response = await fetch(buildUrl(path, opts.query), init);
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
      const error = new ApiError(0, NETWORK_ERROR_MESSAGE);
      if (!opts.handleErrors) showErrorBanner(NO_NETWORK_MESSAGE);
      throw error;
    }
    if (response.ok) return await read(response);
    const error = toApiError(response, await readBody(response));
    if (!opts.handleErrors) {
      if (response.status === 401) {
        if (sessionLost(mark)) signOut(currentLocation());
      } else showErrorBanner(error.message);
    }
    throw error;
  } finally {
    pendingStore.set(pendingStore.get() - 1);
  }
}

function request<T>(method: string, path: string, body: unknown, opts: RequestOptions = {}): Promise<T> {
  return exchange(
    method,
    path,
    body,
    opts,
    "application/json",
    async (response) => (await readBody(response)) as T,
  );
}

/** Reads a newline-delimited JSON body as it arrives, giving each line to `onLine` parsed. */
async function readLines(response: Response, onLine: (line: unknown) => void): Promise<void> {
  if (response.body === null) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    rest += value;
    let end = rest.indexOf("\n");
    let start = 0;
    while (end !== -1) {
      if (end > start) onLine(JSON.parse(rest.slice(start, end)) as unknown);
      start = end + 1;
      end = rest.indexOf("\n", start);
    }
    rest = rest.slice(start);
  }
  if (rest.trim() !== "") onLine(JSON.parse(rest) as unknown);
}

/** The one HTTP client of the web app: JSON in and out under the page's origin (SPEC 4, 8). */
export const api = {
  get<T>(path: string, opts?: RequestOptions): Promise<T> {
    return request<T>("GET", path, undefined, opts);
  },
  /**
   * GET of a newline-delimited JSON stream: each line is given to `onLine` parsed as it arrives, so
   * the whole body is never held; resolves when the stream ends. Failures as for `get`.
   */
  lines(path: string, onLine: (line: unknown) => void, opts: RequestOptions = {}): Promise<void> {
    return exchange("GET", path, undefined, opts, "application/x-ndjson", (response) =>
      readLines(response, onLine),
    );
  },
  /** GET of a body as text, exactly as the server sent it (a message or document shown as sent). */
  text(path: string, opts: RequestOptions = {}): Promise<string> {
    return exchange("GET", path, undefined, opts, "*/*", (response) => response.text());
  },
  post<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return request<T>("POST", path, body, opts);
  },
  put<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return request<T>("PUT", path, body, opts);
  },
  /** DELETE; `body` for the few deletions that need a proof, such as turning the second factor off. */
  del<T>(path: string, opts?: RequestOptions, body?: unknown): Promise<T> {
    return request<T>("DELETE", path, body, opts);
  },
};

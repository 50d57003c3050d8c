import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import {
  ApiError,
  ERROR_BANNER_MS,
  BANNER_FADE_MS,
  api,
  configureClient,
  dismissErrorBanner,
  formErrorMessage,
  pendingRequests,
  showErrorBanner,
  subscribeBanner,
  subscribePending,
  type BannerState,
} from "./client";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let releaseSlow: (() => void) | undefined;

function send(res: ServerResponse, status: number, body?: unknown, statusText?: string): void {
  if (body === undefined) {
    res.writeHead(status, statusText);
    res.end();
    return;
  }
  res.writeHead(status, statusText, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const path = new URL(req.url ?? "/", "http://x").pathname;
      switch (path) {
        case "/api/echo":
          return send(res, 200, {
            method: req.method,
            url: req.url,
            body: body ? (JSON.parse(body) as unknown) : null,
          });
        case "/api/empty":
          return send(res, 204);
        case "/api/unauthorized":
          return send(res, 401, { responseStatus: { status: 401, message: "Not signed in." } });
        case "/api/invalid":
          return send(res, 400, {
            responseStatus: {
              status: 400,
              message: "Invalid input.",
              errorCode: 7,
              errors: [{ field: "email", message: "Required" }],
            },
          });
        case "/api/bare":
          return send(res, 503, undefined, "Service Unavailable");
        case "/api/lines": {
          // Lines cut anywhere across chunks, as a stream arrives.
          res.writeHead(200, { "Content-Type": "application/x-ndjson" });
          const text = '{"n":1}\n{"n":2,"s":"é\\n"}\n\n{"n":3}\n';
          const bytes = Buffer.from(text, "utf8");
          let at = 0;
          const next = () => {
            if (at >= bytes.length) return res.end();
            res.write(bytes.subarray(at, at + 5));
            at += 5;
            setTimeout(next, 2);
          };
          return next();
        }
        case "/api/slow":
          releaseSlow = () => send(res, 200, { ok: true });
          return;
        default:
          return send(res, 404, { responseStatus: { status: 404, message: "Not found." } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  configureClient({ baseUrl });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  seen.length = 0;
  dismissErrorBanner();
  vi.useRealTimers();
});

function watchBanner(): { states: (BannerState | null)[]; stop: () => void } {
  const states: (BannerState | null)[] = [];
  const stop = subscribeBanner((state) => states.push(state));
  return { states, stop };
}

describe("api", () => {
  test("sends JSON with the XHR header and same-origin credentials and parses the JSON answer", async () => {
    const answer = await api.post<{ method: string; body: unknown }>("/api/echo", { name: "Ann" });
    expect(answer).toEqual({ method: "POST", url: "/api/echo", body: { name: "Ann" } });
    expect(seen[0]?.headers["x-requested-with"]).toBe("XMLHttpRequest");
    expect(seen[0]?.headers["content-type"]).toBe("application/json");
  });

  test("puts the query on GET and leaves out undefined values", async () => {
    const answer = await api.get<{ url: string }>("/api/echo", {
      query: { q: "a b", page: 2, all: true, x: undefined },
    });
    expect(answer.url).toBe("/api/echo?q=a+b&page=2&all=true");
    expect(seen[0]?.headers["x-requested-with"]).toBe("XMLHttpRequest");
  });

  test("sends PUT and DELETE with their methods", async () => {
    await expect(api.put("/api/echo", { a: 1 })).resolves.toMatchObject({ method: "PUT", body: { a: 1 } });
    await expect(api.del("/api/echo")).resolves.toMatchObject({ method: "DELETE", body: null });
  });

  test("reads a newline-delimited JSON stream line by line as it arrives, with the XHR header", async () => {
    const lines: unknown[] = [];
    await api.lines("/api/lines", (line) => lines.push(line), { query: { duration: 5 } });
    expect(lines).toEqual([{ n: 1 }, { n: 2, s: "é\n" }, { n: 3 }]);
    expect(seen[0]?.url).toBe("/api/lines?duration=5");
    expect(seen[0]?.headers["x-requested-with"]).toBe("XMLHttpRequest");
    expect(pendingRequests()).toBe(0);
  });

  test("rejects a failed stream with the server message and shows the banner", async () => {
    const banner = watchBanner();
    const error = await api.lines("/api/invalid", () => undefined).catch((e: unknown) => e);
    banner.stop();
    expect(error).toMatchObject({ status: 400, message: "Invalid input." });
    expect(banner.states.at(-1)).toMatchObject({ message: "Invalid input." });
  });

  test("resolves undefined on 204", async () => {
    await expect(api.del("/api/empty")).resolves.toBeUndefined();
  });

  test("rejects with the server message, error code and field errors and shows the banner", async () => {
    const banner = watchBanner();
    const error = await api.post("/api/invalid", {}).catch((e: unknown) => e);
    banner.stop();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: "Invalid input.",
      errorCode: 7,
      errors: [{ field: "email", message: "Required" }],
    });
    expect(banner.states.at(-1)).toMatchObject({ message: "Invalid input.", leaving: false });
  });

  test("uses the HTTP status text when the server gives no message", async () => {
    const banner = watchBanner();
    await expect(api.get("/api/bare")).rejects.toMatchObject({ status: 503, message: "Service Unavailable" });
    banner.stop();
    expect(banner.states.at(-1)?.message).toBe("Service Unavailable");
  });

  test("shows no banner when the caller handles errors", async () => {
    const banner = watchBanner();
    await expect(api.get("/api/missing", { handleErrors: true })).rejects.toMatchObject({ status: 404 });
    banner.stop();
    expect(banner.states).toEqual([]);
  });

  test("hands the current location to the logout move on 401 and shows no banner", async () => {
    const returns: string[] = [];
    configureClient({ onUnauthorized: (to) => returns.push(to) });
    window.history.replaceState(null, "", "/patients?q=x");
    const banner = watchBanner();
    await expect(api.get("/api/unauthorized")).rejects.toMatchObject({
      status: 401,
      message: "Not signed in.",
    });
    banner.stop();
    expect(returns).toEqual(["/patients?q=x"]);
    expect(banner.states).toEqual([]);
  });

  test("leaves a 401 to the caller that handles errors", async () => {
    const returns: string[] = [];
    configureClient({ onUnauthorized: (to) => returns.push(to) });
    await expect(api.get("/api/unauthorized", { handleErrors: true })).rejects.toMatchObject({ status: 401 });
    expect(returns).toEqual([]);
  });

  test("rejects with message 'error' and status 0 when the network fails", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    configureClient({ baseUrl: `http://127.0.0.1:${port}` });
    const banner = watchBanner();
    try {
      const error = await api.get("/api/echo").catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 0, message: "error" });
      expect(formErrorMessage(error)).toBe("Error: No network connectivity");
      expect(banner.states.at(-1)?.message).toBe("Error: No network connectivity");
    } finally {
      banner.stop();
      configureClient({ baseUrl });
    }
  });

  test("counts requests in flight until all finish", async () => {
    const counts: number[] = [];
    const stop = subscribePending((n) => counts.push(n));
    const slow = api.get("/api/slow");
    const fast = api.get("/api/echo");
    await fast;
    expect(pendingRequests()).toBe(1);
    await vi.waitFor(() => expect(releaseSlow).toBeDefined(), { timeout: 10_000 });
    releaseSlow?.();
    await slow;
    stop();
    expect(pendingRequests()).toBe(0);
    expect(counts).toEqual([1, 2, 1, 0]);
  });
});

describe("showErrorBanner", () => {
  test("stays 10 seconds, then fades out and disappears", () => {
    vi.useFakeTimers();
    const banner = watchBanner();
    showErrorBanner("Boom");
    vi.advanceTimersByTime(ERROR_BANNER_MS - 1);
    expect(banner.states).toEqual([{ id: expect.any(Number) as number, message: "Boom", leaving: false }]);
    vi.advanceTimersByTime(1);
    expect(banner.states.at(-1)).toMatchObject({ message: "Boom", leaving: true });
    vi.advanceTimersByTime(BANNER_FADE_MS);
    expect(banner.states.at(-1)).toBeNull();
    banner.stop();
  });

  test("a new message replaces the shown one and restarts the 10 seconds", () => {
    vi.useFakeTimers();
    showErrorBanner("First");
    vi.advanceTimersByTime(ERROR_BANNER_MS - 100);
    const banner = watchBanner();
    showErrorBanner("Second");
    vi.advanceTimersByTime(ERROR_BANNER_MS - 1);
    expect(banner.states).toEqual([expect.objectContaining({ message: "Second", leaving: false })]);
    banner.stop();
  });
});

describe("formErrorMessage", () => {
  test("keeps a server message as it is", () => {
    expect(formErrorMessage(new ApiError(400, "Invalid email or password."))).toBe(
      "Invalid email or password.",
    );
  });
});

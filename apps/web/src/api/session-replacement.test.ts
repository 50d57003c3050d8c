import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ApiError, api, configureClient, replaceSession, sessionLost, sessionMark } from "./client";
import { keepalive } from "./use-session-timers";

// A file of its own: a replaced session is the page's state for as long as the module lives.

/** Answers held by the test server until the test lets each go, by path. */
const held = new Map<string, (status: number) => void>();
let server: Server;
const signOuts: string[] = [];

function answer(res: ServerResponse, status: number): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(
    JSON.stringify(
      status === 200 ? { ok: true } : { responseStatus: { status, message: `Answered ${status}.` } },
    ),
  );
}

/** Resolves once the server holds a request to `path`; the returned function answers it. */
async function heldRequest(path: string): Promise<(status: number) => void> {
  for (;;) {
    const release = held.get(path);
    if (release !== undefined) {
      held.delete(path);
      return release;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      held.set(path, (status) => answer(res, status));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  configureClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    onUnauthorized: (returnTo) => signOuts.push(returnTo),
  });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  signOuts.length = 0;
  window.history.replaceState(null, "", "/reports");
});

describe("a session replaced by the page (a practice switch, a hand-over)", () => {
  test("a failed replacement signs out with the first 401 that arrived while it ran, and the next 401 still does", async () => {
    const list = api.get("/api/list").catch((error: unknown) => error);
    const answerList = await heldRequest("/api/list");
    const switching = replaceSession(() => api.put("/api/switch")).catch((error: unknown) => error);
    const answerSwitch = await heldRequest("/api/switch");
    answerList(401);
    expect(await list).toMatchObject({ status: 401 });
    expect(signOuts).toEqual([]);
    window.history.replaceState(null, "", "/today");
    answerSwitch(500);
    expect(await switching).toMatchObject({ status: 500 });
    expect(signOuts).toEqual(["/reports"]);

    const later = api.get("/api/later").catch((error: unknown) => error);
    (await heldRequest("/api/later"))(401);
    await later;
    expect(signOuts).toEqual(["/reports", "/today"]);
  });

  test("a replacement answered 401 itself signs out once, as any 401 does", async () => {
    const switching = replaceSession(() => api.put("/api/switch")).catch((error: unknown) => error);
    (await heldRequest("/api/switch"))(401);
    expect(await switching).toBeInstanceOf(ApiError);
    expect(signOuts).toEqual(["/reports"]);
  });

  test("a replacement that fails with no 401 meanwhile signs nobody out", async () => {
    const switching = replaceSession(() => api.put("/api/switch", undefined, { handleErrors: true }));
    (await heldRequest("/api/switch"))(404);
    await expect(switching).rejects.toMatchObject({ status: 404 });
    expect(signOuts).toEqual([]);
  });

  // Last: the page's session stays replaced.
  test("401s of requests sent before a replacement that succeeded do not sign out; requests sent after it do", async () => {
    const before = sessionMark();
    const list = api.get("/api/list").catch((error: unknown) => error);
    const answerList = await heldRequest("/api/list");
    const ping = keepalive(() => signOuts.push("keepalive"));
    const answerPing = await heldRequest("/api/auth/keepalive");
    const late = api.get("/api/late").catch((error: unknown) => error);
    const answerLate = await heldRequest("/api/late");

    const switching = replaceSession(() => api.put<{ ok: boolean }>("/api/switch"));
    const answerSwitch = await heldRequest("/api/switch");
    // The server ends the old session as it makes the new one: a request it reads meanwhile is refused.
    answerList(401);
    expect(await list).toMatchObject({ status: 401 });
    answerSwitch(200);
    expect(await switching).toEqual({ ok: true });
    answerLate(401);
    answerPing(401);
    expect(await late).toMatchObject({ status: 401 });
    await ping;
    expect(signOuts).toEqual([]);
    expect(sessionLost(before)).toBe(false);

    const after = api.get("/api/after").catch((error: unknown) => error);
    (await heldRequest("/api/after"))(401);
    expect(await after).toMatchObject({ status: 401 });
    expect(signOuts).toEqual(["/reports"]);
    expect(sessionLost(sessionMark())).toBe(true);
  });
});

import { beforeEach, describe, expect, test } from "vitest";
import { heldServerForFile } from "../test/held-server";
import { ApiError, api, replaceSession, sessionLost, sessionMark } from "./client";
import { keepalive } from "./use-session-timers";

// A file of its own: a replaced session is the page's state for as long as the module lives.

const { server, signOuts } = heldServerForFile();
const heldRequest = (path: string) => server().heldRequest(path);

beforeEach(() => {
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

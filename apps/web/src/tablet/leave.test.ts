import { afterEach, describe, expect, test, vi } from "vitest";
import { createTabletExit } from "./leave";

afterEach(() => {
  vi.useRealTimers();
});

describe("createTabletExit", () => {
  test("goes once the registered work and the pending save have settled", async () => {
    const went: string[] = [];
    const exit = createTabletExit({ go: (to) => went.push(to), waitMs: 60_000 });
    let finishSave: () => void = () => undefined;
    const save = new Promise<void>((resolve) => (finishSave = resolve));
    const seen: string[] = [];
    exit.beforeLeave((to) => {
      seen.push(to);
      return Promise.reject(new Error("refused"));
    });

    const leaving = exit.leave("/auth/logout", save);
    await Promise.resolve();
    expect(seen).toEqual(["/auth/logout"]);
    expect(went).toEqual([]);
    finishSave();
    await leaving;

    expect(went).toEqual(["/auth/logout"]);
  });

  test("goes after the wait when a save never finishes", async () => {
    vi.useFakeTimers();
    const went: string[] = [];
    const exit = createTabletExit({ go: (to) => went.push(to), waitMs: 5_000 });

    const leaving = exit.leave("/auth/logout", new Promise(() => undefined));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(went).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await leaving;

    expect(went).toEqual(["/auth/logout"]);
  });

  test("leaves only once and runs no work that was removed", async () => {
    const went: string[] = [];
    const exit = createTabletExit({ go: (to) => went.push(to), waitMs: 1_000 });
    let ran = 0;
    const remove = exit.beforeLeave(() => {
      ran += 1;
      return undefined;
    });
    remove();

    await exit.leave("/auth/logout?redirect=%2Ftablet");
    await exit.leave("/auth/logout");

    expect(went).toEqual(["/auth/logout?redirect=%2Ftablet"]);
    expect(ran).toBe(0);
  });
});

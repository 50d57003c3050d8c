import { describe, expect, test } from "vitest";
import { AppError } from "../errors.js";
import { TenantSlots } from "./tenant-slots.js";

/** A piece of work that runs until `finish` is called. */
function held(): { work: () => Promise<string>; finish: (value: string) => void } {
  let finish!: (value: string) => void;
  const done = new Promise<string>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

describe("TenantSlots", () => {
  test("a practice runs its cap at once, the next waits its turn first come first served, another practice never waits", async () => {
    const slots = new TenantSlots({ perTenant: 2, waitMs: 5000, maxWaiting: 4 });
    const [one, two, three, four] = [held(), held(), held(), held()];
    const order: string[] = [];
    const runs = [one, two, three, four].map((h, i) =>
      slots.run("a", async () => {
        order.push(`start ${i}`);
        return h.work();
      }),
    );
    await Promise.resolve();
    expect(slots.stateOf("a")).toEqual({ running: 2, waiting: 2 });
    expect(await slots.run("b", async () => "b's")).toBe("b's");
    one.finish("1");
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(["start 0", "start 1", "start 2"]);
    two.finish("2");
    three.finish("3");
    four.finish("4");
    expect(await Promise.all(runs)).toEqual(["1", "2", "3", "4"]);
    expect(order).toEqual(["start 0", "start 1", "start 2", "start 3"]);
    expect(slots.stateOf("a")).toEqual({ running: 0, waiting: 0 });
  });

  test("a read that waits past waitMs, or finds the queue full, is 503 with Retry-After; a failed read gives its slot back", async () => {
    const slots = new TenantSlots({ perTenant: 1, waitMs: 50, maxWaiting: 1 });
    const h = held();
    const running = slots.run("a", h.work);
    const waiting = slots.run("a", async () => "late");
    const full = slots.run("a", async () => "never");
    await expect(full).rejects.toMatchObject({ statusCode: 503, headers: { "retry-after": "2" } });
    const err: unknown = await waiting.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).statusCode).toBe(503);
    h.finish("done");
    expect(await running).toBe("done");
    await expect(slots.run("a", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(slots.stateOf("a")).toEqual({ running: 0, waiting: 0 });
    expect(await slots.run("a", async () => "again")).toBe("again");
  });
});

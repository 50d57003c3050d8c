import { describe, expect, test } from "vitest";
import { Batcher } from "./batcher.js";

/** A run that records each batch it is given and answers when released. */
function recordingRun() {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  const run = (items: number[]) =>
    new Promise<string[]>((resolve) => {
      batches.push(items);
      releases.push(() => resolve(items.map((item) => `done ${item}`)));
    });
  const releaseAll = () => {
    for (const release of releases.splice(0)) release();
  };
  return { run, batches, releaseAll };
}

/** A few turns of the event loop: enough for a finished run to free its slot and start the next. */
const turn = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("Batcher", () => {
  test("runs an item alone at once when nothing else is under way", async () => {
    const { run, batches, releaseAll } = recordingRun();
    const batcher = new Batcher(run, { maxBatch: 10, maxInFlight: 1 });
    const answer = batcher.add(1);
    await turn();
    expect(batches).toEqual([[1]]);
    releaseAll();
    expect(await answer).toBe("done 1");
  });

  test("gathers the items that arrive while a run is under way into the next run", async () => {
    const { run, batches, releaseAll } = recordingRun();
    const batcher = new Batcher(run, { maxBatch: 10, maxInFlight: 1 });
    const first = batcher.add(1);
    await turn();
    const rest = [2, 3, 4].map((item) => batcher.add(item));
    await turn();
    expect(batches).toEqual([[1]]);
    releaseAll();
    await first;
    await turn();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    releaseAll();
    expect(await Promise.all(rest)).toEqual(["done 2", "done 3", "done 4"]);
  });

  test("keeps at most maxInFlight runs of at most maxBatch items", async () => {
    const { run, batches, releaseAll } = recordingRun();
    const batcher = new Batcher(run, { maxBatch: 2, maxInFlight: 2 });
    const answers = [1, 2, 3, 4, 5, 6].map((item) => batcher.add(item));
    await turn();
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    releaseAll();
    await Promise.all(answers.slice(0, 4));
    await turn();
    expect(batches.at(-1)).toEqual([5, 6]);
    releaseAll();
    expect(await Promise.all(answers)).toHaveLength(6);
  });

  test("closes a run at maxWeight, yet runs an item heavier than that alone", async () => {
    const { run, batches, releaseAll } = recordingRun();
    const batcher = new Batcher(run, {
      maxBatch: 10,
      maxInFlight: 1,
      maxWeight: 10,
      weightOf: (item) => item,
    });
    const answers = [4, 5, 3, 20, 1].map((item) => batcher.add(item));
    await turn();
    expect(batches).toEqual([[4, 5, 1]]);
    for (const expected of [[3], [20]]) {
      releaseAll();
      await turn();
      expect(batches.at(-1)).toEqual(expected);
    }
    releaseAll();
    expect(await Promise.all(answers)).toHaveLength(5);
  });

  test("never puts two items with the same key in one run", async () => {
    const { run, batches, releaseAll } = recordingRun();
    const batcher = new Batcher(run, { maxBatch: 10, maxInFlight: 1, keyOf: (item) => String(item % 2) });
    const answers = [1, 3, 2, 5].map((item) => batcher.add(item));
    await turn();
    expect(batches).toEqual([[1, 2]]);
    releaseAll();
    await Promise.all([answers[0], answers[2]]);
    await turn();
    expect(batches[1]).toEqual([3]);
    releaseAll();
    await answers[1];
    await turn();
    expect(batches[2]).toEqual([5]);
    releaseAll();
    expect(await Promise.all(answers)).toEqual(["done 1", "done 3", "done 2", "done 5"]);
  });

  test("runs each item of a failed run alone, so only the bad one fails", async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number, number>(
      async (items) => {
        batches.push(items);
        if (items.includes(13)) throw new Error("unlucky");
        return items.map((item) => item * 2);
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const answers = [1, 13, 3].map((item) => batcher.add(item));
    const settled = await Promise.allSettled(answers);
    expect(batches).toEqual([[1, 13, 3], [1], [13], [3]]);
    expect(settled.map((s) => (s.status === "fulfilled" ? s.value : (s.reason as Error).message))).toEqual([
      2,
      "unlucky",
      6,
    ]);
  });
});

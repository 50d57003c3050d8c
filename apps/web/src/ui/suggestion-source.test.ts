import { describe, expect, test } from "vitest";
import { createSuggestionSource } from "./suggestion-source";

function deferredFetch() {
  const calls: { query: string; resolve: (v: string[]) => void }[] = [];
  const fetch = (query: string) => new Promise<string[]>((resolve) => calls.push({ query, resolve }));
  return { calls, fetch };
}

async function flush() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe("createSuggestionSource", () => {
  test("answers a repeated query from the cache", async () => {
    const queries: string[] = [];
    const source = createSuggestionSource({ fetch: (q) => (queries.push(q), Promise.resolve([`${q}!`])) });
    expect(await source.get("ann")).toEqual(["ann!"]);
    expect(await source.get("ANN ")).toEqual(["ann!"]);
    expect(queries).toEqual(["ann"]);
  });

  test("keeps only the last 10 responses", async () => {
    const queries: string[] = [];
    const source = createSuggestionSource({ fetch: (q) => (queries.push(q), Promise.resolve([q])) });
    for (let i = 0; i < 11; i++) await source.get(`q${i}`);
    await source.get("q10");
    await source.get("q1");
    expect(queries).toHaveLength(11);
    await source.get("q0");
    expect(queries).toHaveLength(12);
    expect(queries.at(-1)).toBe("q0");
  });

  test("fetches again after 24 hours", async () => {
    let clock = 0;
    const queries: string[] = [];
    const source = createSuggestionSource({
      fetch: (q) => (queries.push(q), Promise.resolve([q])),
      now: () => clock,
    });
    await source.get("a");
    clock = 24 * 60 * 60 * 1000 - 1;
    await source.get("a");
    expect(queries).toHaveLength(1);
    clock += 1;
    await source.get("a");
    expect(queries).toHaveLength(2);
  });

  test("runs at most 6 requests at a time and starts the next when one ends", async () => {
    const { calls, fetch } = deferredFetch();
    const source = createSuggestionSource({ fetch });
    const answers = Array.from({ length: 8 }, (_, i) => source.get(`q${i}`));
    await flush();
    expect(calls.map((c) => c.query)).toEqual(["q0", "q1", "q2", "q3", "q4", "q5"]);
    expect(source.running()).toBe(6);
    calls[0]?.resolve(["a"]);
    await flush();
    expect(calls).toHaveLength(7);
    for (const call of calls.slice(1)) call.resolve([call.query]);
    await flush();
    calls[7]?.resolve(["last"]);
    expect(await Promise.all(answers)).toHaveLength(8);
    expect(source.running()).toBe(0);
  });

  test("shares one request between callers of the same query", async () => {
    const { calls, fetch } = deferredFetch();
    const source = createSuggestionSource({ fetch });
    const first = source.get("x");
    const second = source.get("x");
    await flush();
    calls[0]?.resolve(["x1"]);
    expect(await first).toEqual(["x1"]);
    expect(await second).toEqual(["x1"]);
    expect(calls).toHaveLength(1);
  });
});

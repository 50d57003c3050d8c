import { webcrypto } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { OfflineStore, type OfflineCopy } from "./offline-copy";

const subtle = webcrypto.subtle as SubtleCrypto;
const copy: OfflineCopy = {
  answers: { depression: { phq9SelfHarm: "several days" } },
  pageIndex: 4,
  language: "es",
  savedAt: 1_000,
  submit: false,
};

afterEach(() => localStorage.clear());

describe("OfflineStore", () => {
  test("gives the copy back to the same link, sealed so that storage holds nothing readable", async () => {
    const store = await OfflineStore.open(localStorage, "token-one", subtle);
    await store?.save(copy);
    expect(await store?.load()).toEqual(copy);
    const raw = Object.values({ ...localStorage }).join("");
    expect(raw).not.toContain("several days");
    expect(raw).not.toContain("token-one");
  });

  test("keeps answers of a megabyte, far past the arguments a call may take", async () => {
    const store = await OfflineStore.open(localStorage, "token-one", subtle);
    const long: OfflineCopy = { ...copy, answers: { notes: "ñ".repeat(500_000) } };
    await store?.save(long);
    expect(await store?.load()).toEqual(long);
  });

  test("another link in the same browser finds nothing", async () => {
    await (await OfflineStore.open(localStorage, "token-one", subtle))?.save(copy);
    const other = await OfflineStore.open(localStorage, "token-two", subtle);
    expect(await other?.load()).toBeNull();
    expect(localStorage.length).toBe(1);
  });

  test("drops a tampered copy and clears on demand", async () => {
    const store = await OfflineStore.open(localStorage, "token-one", subtle);
    await store?.save(copy);
    const name = localStorage.key(0) ?? "";
    const sealed = JSON.parse(localStorage.getItem(name) ?? "{}") as { data: string };
    // Its first character changed (to "A", or "B" where it was "A": the sealed bytes are random).
    const data = `${sealed.data.startsWith("A") ? "B" : "A"}${sealed.data.slice(1)}`;
    localStorage.setItem(name, JSON.stringify({ ...sealed, data }));
    expect(await store?.load()).toBeNull();
    expect(localStorage.length).toBe(0);
    await store?.save(copy);
    store?.clear();
    expect(localStorage.length).toBe(0);
  });
});

import { randomBytes, webcrypto } from "node:crypto";
import { beforeEach, describe, expect, test } from "vitest";
import type { Survey } from "@core-care/survey-engine";
import {
  TABLET_SESSION_KEY,
  TABLET_SURVEY_KEY,
  TabletStore,
  clearTabletSession,
  newTabletSession,
  type StoredSurvey,
} from "./tablet-session";

const IDLE_MS = 1440_000;
const subtle = webcrypto.subtle as SubtleCrypto;
const newKey = () => randomBytes(32).toString("base64url");
const handover = {
  handoverId: "h".repeat(24),
  patientId: "p".repeat(24),
  surveyId: "s1",
  clientRequestId: "c".repeat(24),
  resultId: null,
  language: "es" as const,
};

const survey: Survey = {
  id: "s1",
  title: "Survey",
  description: "",
  canSubscribeTo: false,
  sections: [],
  pages: [],
  version: 1,
};
const stored: StoredSurvey = {
  clientRequestId: handover.clientRequestId,
  survey,
  globals: { age: 76 },
  idleMs: IDLE_MS,
};

beforeEach(() => {
  localStorage.clear();
});

/** The store of a hand-over (this file's own by default), sealed with `key` in this page's storage. */
const openStore = (key: string, handoverId = handover.handoverId) =>
  TabletStore.open(localStorage, handoverId, key, subtle);

describe("TabletStore", () => {
  test("reads back the session and survey sealed for its hand-over", async () => {
    const key = newKey();
    const store = await openStore(key);
    const session = { ...newTabletSession(handover, 1_000), answers: { mood: "ok" }, pageIndex: 2 };
    await store.save(session);
    await store.saveSurvey(stored, 1_000);

    const reopened = await openStore(key);
    expect(await reopened.load(2_000, IDLE_MS)).toEqual({ session, survey: stored, idleExpired: false });
  });

  test("seals and reads back a survey of a megabyte, far past the arguments a call may take", async () => {
    const key = newKey();
    const store = await openStore(key);
    const session = newTabletSession(handover, 1_000);
    await store.save(session);
    const big: StoredSurvey = { ...stored, survey: { ...survey, description: "é".repeat(500_000) } };
    await store.saveSurvey(big, 1_000);

    const reopened = await openStore(key);
    expect(await reopened.load(2_000, IDLE_MS)).toEqual({ session, survey: big, idleExpired: false });
  });

  test("seals a survey given a promise to wait for only once it settles, and not at all if cleared first", async () => {
    const key = newKey();
    const store = await openStore(key);
    await store.save(newTabletSession(handover, 1_000));
    let shown = () => {};
    const saved = store.saveSurvey(stored, 1_000, new Promise<void>((resolve) => (shown = resolve)));
    expect(store.latestSurvey).toEqual(stored);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(localStorage.getItem(TABLET_SURVEY_KEY)).toBeNull();
    shown();
    await saved;
    expect(localStorage.getItem(TABLET_SURVEY_KEY)).not.toBeNull();

    let shownAgain = () => {};
    const again = store.saveSurvey(stored, 2_000, new Promise<void>((resolve) => (shownAgain = resolve)));
    store.clear();
    shownAgain();
    await again;
    expect(localStorage.getItem(TABLET_SURVEY_KEY)).toBeNull();
    expect(localStorage.getItem(TABLET_SESSION_KEY)).toBeNull();
  });

  test("keeps nothing of the patient readable in browser storage", async () => {
    const store = await openStore(newKey());
    await store.save({
      ...newTabletSession(handover, 1_000),
      answers: { nickname: "Tess Tablet", notes: "private" },
    });
    await store.saveSurvey(stored, 1_000);

    const raw = `${localStorage.getItem(TABLET_SESSION_KEY)}${localStorage.getItem(TABLET_SURVEY_KEY)}`;
    expect(raw).not.toContain("Tess");
    expect(raw).not.toContain("private");
    expect(raw).not.toContain(handover.patientId);
    expect(raw).not.toContain('"age"');
  });

  test("cannot read the stored copy without the hand-over's key, and wipes it", async () => {
    const store = await openStore(newKey());
    await store.save({ ...newTabletSession(handover, 1_000), answers: { mood: "ok" } });

    const wrongKey = await openStore(newKey());
    expect(await wrongKey.load(2_000, IDLE_MS)).toEqual({ session: null, survey: null, idleExpired: false });
    expect(localStorage.getItem(TABLET_SESSION_KEY)).toBeNull();
  });

  test("wipes a copy left by another hand-over, and gives back one idle past the timeout marked so", async () => {
    const key = newKey();
    const store = await openStore(key);
    await store.save(newTabletSession(handover, 1_000));
    const other = await openStore(key, "o".repeat(24));
    expect((await other.load(2_000, IDLE_MS)).session).toBeNull();
    expect(localStorage.length).toBe(0);

    // A tablet that slept through the timeout gets the answers back once, to send them before it ends.
    const idle = { ...newTabletSession(handover, 1_000), answers: { lastPage: "typed" } };
    await store.save(idle);
    expect(await store.load(1_000 + IDLE_MS + 1, IDLE_MS)).toMatchObject({
      session: idle,
      idleExpired: true,
    });
  });

  test("wipes a tampered copy instead of using it", async () => {
    const key = newKey();
    const store = await openStore(key);
    await store.save(newTabletSession(handover, 1_000));
    const envelope = JSON.parse(localStorage.getItem(TABLET_SESSION_KEY) ?? "{}") as { data: string };
    // Its first character changed (to "A", or "B" where it was "A": the sealed bytes are random).
    envelope.data = `${envelope.data.startsWith("A") ? "B" : "A"}${envelope.data.slice(1)}`;
    localStorage.setItem(TABLET_SESSION_KEY, JSON.stringify(envelope));
    expect((await store.load(2_000, IDLE_MS)).session).toBeNull();
  });

  test("writes in order, and a write still encrypting when the store is cleared never lands", async () => {
    const key = newKey();
    const store = await openStore(key);
    const first = store.save({ ...newTabletSession(handover, 1_000), pageIndex: 1 });
    const second = store.save({ ...newTabletSession(handover, 1_000), pageIndex: 2 });
    await Promise.all([first, second]);
    expect((await store.load(2_000, IDLE_MS)).session?.pageIndex).toBe(2);

    const late = store.save({ ...newTabletSession(handover, 1_000), pageIndex: 3 });
    store.clear();
    await late;
    expect(localStorage.length).toBe(0);
  });

  test("stores nothing at all where the page has no Web Crypto", async () => {
    const store = await TabletStore.open(localStorage, handover.handoverId, newKey(), null);
    await store.save(newTabletSession(handover, 1_000));
    expect(localStorage.length).toBe(0);
    expect(store.latest?.handoverId).toBe(handover.handoverId);
  });

  test("clearTabletSession leaves nothing behind", async () => {
    const store = await openStore(newKey());
    await store.save(newTabletSession(handover, 1_000));
    await store.saveSurvey(stored, 1_000);
    clearTabletSession(localStorage);
    expect(localStorage.length).toBe(0);
  });
});

import { beforeEach, describe, expect, test } from "vitest";
import {
  TABLET_SESSION_KEY,
  clearTabletSession,
  readTabletSession,
  startTabletSession,
  writeTabletSession,
} from "./tablet-session";

const IDLE_MS = 1440_000;

beforeEach(() => {
  localStorage.clear();
});

describe("tablet session storage", () => {
  test("reads back a session written for a patient and survey", () => {
    const started = startTabletSession(localStorage, {
      patientId: "p1",
      surveyId: "s1",
      clientRequestId: "c1",
      now: 1_000,
    });
    writeTabletSession(localStorage, { ...started, answers: { mood: "ok" }, pageIndex: 2 });

    expect(readTabletSession(localStorage, 2_000, IDLE_MS)).toEqual({
      patientId: "p1",
      surveyId: "s1",
      clientRequestId: "c1",
      resultId: null,
      answers: { mood: "ok" },
      pageIndex: 2,
      unsent: null,
      lastActivityAt: 1_000,
    });
  });

  test("removes the session when it has been idle longer than the idle timeout", () => {
    startTabletSession(localStorage, { patientId: "p1", surveyId: "s1", clientRequestId: "c1", now: 1_000 });

    expect(readTabletSession(localStorage, 1_000 + IDLE_MS + 1, IDLE_MS)).toBeNull();
    expect(localStorage.getItem(TABLET_SESSION_KEY)).toBeNull();
  });

  test("removes a malformed record instead of using it", () => {
    localStorage.setItem(TABLET_SESSION_KEY, JSON.stringify({ patientId: "p1", answers: [] }));

    expect(readTabletSession(localStorage, 0, IDLE_MS)).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  test("leaves nothing behind when cleared", () => {
    startTabletSession(localStorage, { patientId: "p1", surveyId: "s1", clientRequestId: "c1", now: 0 });

    clearTabletSession(localStorage);

    expect(localStorage.length).toBe(0);
  });

  test("reports failure instead of throwing when the browser refuses to store", () => {
    const full: Storage = {
      ...localStorage,
      length: 0,
      setItem() {
        throw new DOMException("full", "QuotaExceededError");
      },
    };

    expect(
      writeTabletSession(full, {
        patientId: "p",
        surveyId: "s",
        clientRequestId: "c",
        resultId: null,
        answers: {},
        pageIndex: 0,
        unsent: null,
        lastActivityAt: 0,
      }),
    ).toBe(false);
  });
});

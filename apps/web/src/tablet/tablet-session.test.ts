import { beforeEach, describe, expect, test } from "vitest";
import type { Survey } from "@core-care/survey-engine";
import {
  TABLET_SESSION_KEY,
  TABLET_SURVEY_KEY,
  clearTabletSession,
  readStoredSurvey,
  readTabletSession,
  startTabletSession,
  writeStoredSurvey,
  writeTabletSession,
  type StoredSurvey,
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

const survey: Survey = {
  id: "s1",
  title: "Check-in",
  description: "",
  canSubscribeTo: false,
  version: 3,
  sections: [],
  pages: [{ id: "p1", title: "One", conditions: [], questions: [] }],
};

const stored = (clientRequestId: string): StoredSurvey => ({
  clientRequestId,
  survey,
  globals: { sex: "F", age: 70, tenant: { id: "t1" } },
  idleMs: IDLE_MS,
});

describe("stored survey", () => {
  test("reads back the survey stored for the same session only", () => {
    startTabletSession(localStorage, { patientId: "p1", surveyId: "s1", clientRequestId: "c1", now: 0 });
    expect(writeStoredSurvey(localStorage, stored("c1"))).toBe(true);

    expect(readStoredSurvey(localStorage, "c1")).toEqual(stored("c1"));
    expect(readStoredSurvey(localStorage, "c2")).toBeNull();
  });

  test("goes with the session: removed when it is cleared, replaced when a new one starts", () => {
    writeStoredSurvey(localStorage, stored("c1"));
    clearTabletSession(localStorage);
    expect(localStorage.getItem(TABLET_SURVEY_KEY)).toBeNull();

    writeStoredSurvey(localStorage, stored("c1"));
    startTabletSession(localStorage, { patientId: "p2", surveyId: "s1", clientRequestId: "c2", now: 0 });
    expect(localStorage.getItem(TABLET_SURVEY_KEY)).toBeNull();
  });

  test("is removed with the session when that has been idle too long", () => {
    startTabletSession(localStorage, { patientId: "p1", surveyId: "s1", clientRequestId: "c1", now: 0 });
    writeStoredSurvey(localStorage, stored("c1"));

    expect(readTabletSession(localStorage, IDLE_MS + 1, IDLE_MS)).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  test("ignores a malformed record", () => {
    localStorage.setItem(TABLET_SURVEY_KEY, JSON.stringify({ clientRequestId: "c1", survey: { id: "s1" } }));
    expect(readStoredSurvey(localStorage, "c1")).toBeNull();
    localStorage.setItem(TABLET_SURVEY_KEY, "{not json");
    expect(readStoredSurvey(localStorage, "c1")).toBeNull();
  });
});

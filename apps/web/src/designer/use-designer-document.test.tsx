import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createSurvey, type Survey } from "@core-care/survey-engine";
import { createLocalCopy } from "./local-copy";
import { LOCAL_COPY_DELAY_MS, useDesignerDocument } from "./use-designer-document";

const stored = () => createLocalCopy<Survey>("survey").read();

/** A designer open on a new survey (version 0: opened from the local copy, no server involved). */
async function openNew() {
  const survey = createSurvey({ version: 0 });
  createLocalCopy<Survey>("survey").write(survey, false);
  const hook = renderHook(() => useDesignerDocument("survey", survey.id));
  await waitFor(() => expect(hook.result.current.state.status).toBe("ready"));
  const writes = vi.spyOn(Storage.prototype, "setItem");
  const type = (text: string) => {
    for (let i = 1; i <= text.length; i++) {
      act(() => hook.result.current.edit((s) => ({ ...s, title: text.slice(0, i) })));
    }
  };
  return { survey, hook, writes, type };
}

const surveyWrites = (writes: { mock: { calls: unknown[][] } }) =>
  writes.mock.calls.filter(([key]) => key === "survey").length;

beforeEach(() => window.localStorage.clear());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("useDesignerDocument's local copy (SPEC 4)", () => {
  test("is written once edits pause, not on every keystroke, with the last edited id", async () => {
    const { survey, hook, writes, type } = await openNew();
    type("Falls screening");
    expect(hook.result.current.state).toMatchObject({ saved: false, document: { title: "Falls screening" } });
    expect(surveyWrites(writes)).toBe(0);
    await waitFor(() => expect(stored()?.document.title).toBe("Falls screening"), {
      timeout: LOCAL_COPY_DELAY_MS * 10,
    });
    expect(surveyWrites(writes)).toBe(1);
    expect(stored()?.saved).toBe(false);
    expect(window.localStorage.getItem("survey_last_id")).toBe(survey.id);
  });

  test("is written at once when the page is hidden or left", async () => {
    const { type } = await openNew();
    type("Before reload");
    act(() => {
      window.dispatchEvent(new Event("pagehide"));
    });
    expect(stored()?.document.title).toBe("Before reload");
  });

  test("is written at once when the designer closes", async () => {
    const { hook, type } = await openNew();
    type("Closed");
    hook.unmount();
    expect(stored()?.document.title).toBe("Closed");
  });
});

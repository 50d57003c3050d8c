import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { TabletHandover } from "@core-care/schema";
import { TABLET_BOOT_ID, TABLET_DRAWN_ATTRIBUTE } from "@core-care/schema/paths";
import { CORE_CARE_WELLNESS_EXAM_ID, coreCareWellnessExam, type Survey } from "@core-care/survey-engine";

// The tablet's first page drawn on the server and taken over in the browser: the server's markup and the
// browser's first render must be one and the same, or React draws the page again (and says so).

const survey: Survey = coreCareWellnessExam;

function handover(language: "en" | "es"): TabletHandover {
  return {
    handoverId: "a".repeat(24),
    patientId: "b".repeat(24),
    surveyId: CORE_CARE_WELLNESS_EXAM_ID,
    clientRequestId: "c".repeat(24),
    resultId: null,
    firstName: "Tess",
    language,
    dataKey: randomBytes(32).toString("base64url"),
    globals: { sex: "F", age: 76 },
    idleTimeoutSeconds: 1440,
  };
}

const url = `/tablet/patient-survey/${CORE_CARE_WELLNESS_EXAM_ID}/pg/1`;

/** The page as the API sends it: the drawn markup in the inert root, the boot block at the end. */
async function servePage(boot: { handover: TabletHandover; survey: Survey }): Promise<HTMLElement> {
  // The server's modules are a world of their own: the browser's below start from nothing.
  vi.resetModules();
  const { drawTabletPage } = await import("./tablet-server");
  const drawn = await drawTabletPage(url, boot);
  if (drawn === null) throw new Error("the page was not drawn");
  vi.resetModules();
  window.history.replaceState(null, "", url);
  document.documentElement.lang = "en";
  document.body.innerHTML = `<div id="root" ${TABLET_DRAWN_ATTRIBUTE} inert>${drawn.html}</div>`;
  const block = document.createElement("script");
  block.type = "application/json";
  block.id = TABLET_BOOT_ID;
  block.textContent = JSON.stringify(boot);
  document.body.append(block);
  return document.getElementById("root") as HTMLElement;
}

/** Everything React says while it takes the page over. */
let said: string[] = [];
beforeEach(() => {
  said = [];
  localStorage.clear();
  for (const level of ["error", "warn"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      said.push(args.map(String).join(" "));
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("the tablet's first page drawn on the server", () => {
  test("draws only the survey runner's address, for the hand-over's own survey", async () => {
    const { drawTabletPage } = await import("./tablet-server");
    const boot = { handover: handover("en"), survey };
    expect(await drawTabletPage("/tablet", boot)).toBeNull();
    expect(await drawTabletPage(`${url}/`, boot)).toBeNull();
    expect(await drawTabletPage("/tablet/patient-survey/x/pg/0", boot)).toBeNull();
    expect(await drawTabletPage(url, { ...boot, survey: { ...survey, id: "other" } })).toBeNull();
    const drawn = await drawTabletPage(`${url}?from=handover`, boot);
    expect(drawn?.language).toBe("en");
    // The first page's first question and the patient's first name, as the browser would show them.
    expect(drawn?.html).toContain("Patient: Tess");
    expect(drawn?.html).toContain(survey.pages[0]?.title ?? "no title");
  });

  test("is taken over by the browser as it is: the same elements, no second drawing, then answers taps", async () => {
    const root = await servePage({ handover: handover("en"), survey });
    const firstInput = root.querySelector<HTMLInputElement>(".sv-question input");
    expect(firstInput).not.toBeNull();
    const { mountTablet } = await import("./tablet/mount");
    await mountTablet(root);
    await waitFor(() => expect(root.hasAttribute("inert")).toBe(false));
    expect(root.hasAttribute(TABLET_DRAWN_ATTRIBUTE)).toBe(false);
    // Hydrated, not replaced: the element the server drew is the one on the page.
    expect(root.contains(firstInput)).toBe(true);
    expect(said).toEqual([]);
    // The first question's first choice, tapped: React's state has it, as the next render shows.
    const choice = firstInput as HTMLInputElement;
    expect(choice.type).toBe("radio");
    await userEvent.click(choice);
    await waitFor(() => expect(choice.checked).toBe(true));
    await waitFor(() => expect(root.querySelector(".sv-question input:checked")).toBe(choice));
    expect(said).toEqual([]);
  });

  test("in the patient's language: Spanish on the server and in the browser alike", async () => {
    const root = await servePage({ handover: handover("es"), survey });
    expect(root.textContent).toContain("Español");
    const heading = root.querySelector("h1, h2");
    const drawnText = root.textContent;
    const { mountTablet } = await import("./tablet/mount");
    await mountTablet(root);
    await waitFor(() => expect(root.hasAttribute("inert")).toBe(false));
    expect(root.contains(heading)).toBe(true);
    expect(root.textContent).toBe(drawnText);
    expect(document.documentElement.lang).toBe("es");
    expect(said).toEqual([]);
  });

  test("a resumed session is drawn afresh in the browser, on the page it had reached", async () => {
    const boot = { handover: handover("en"), survey };
    // The session stored by an earlier load of this hand-over, on the second page.
    const { TabletStore, newTabletSession } = await import("./tablet/tablet-session");
    const store = await TabletStore.open(localStorage, boot.handover.handoverId, boot.handover.dataKey);
    const second = survey.pages[1];
    expect(second).toBeDefined();
    await store.save({ ...newTabletSession(boot.handover, Date.now()), pageIndex: 1 });
    const root = await servePage(boot);
    const drawnInput = root.querySelector(".sv-question input");
    const { mountTablet } = await import("./tablet/mount");
    await mountTablet(root);
    await waitFor(() => expect(root.textContent).toContain(second?.title ?? "no title"));
    expect(root.hasAttribute("inert")).toBe(false);
    expect(root.contains(drawnInput)).toBe(false);
    expect(said).toEqual([]);
  });
});

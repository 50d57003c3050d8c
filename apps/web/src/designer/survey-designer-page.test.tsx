import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { grants } from "../test/grants";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { CONDITION_ACTIONS, createSurvey, type Survey } from "@core-care/survey-engine";
import { setMe } from "../api/session";
import { Role } from "../api/types";
import { createLocalCopy } from "./local-copy";
import SurveyDesignerPage from "./survey-designer-page";

function openDesigner(survey: Survey) {
  createLocalCopy<Survey>("survey").write(survey, false);
  return render(
    <MemoryRouter initialEntries={[`/surveys/${survey.id}`]}>
      <Routes>
        <Route path="/surveys/:surveyId" element={<SurveyDesignerPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

function stored(): Survey | undefined {
  return createLocalCopy<Survey>("survey").read()?.document;
}

beforeEach(() => {
  window.localStorage.clear();
  setMe({
    user: {
      id: "aaaaaaaaaaaaaaaaaaaaaaaa",
      email: "admin@example.test",
      firstName: "Ada",
      lastName: "Admin",
      roles: Role.admin,
      tenant: "demo",
      tenants: ["demo"],
    },
    tenant: { id: "demo", name: "Demo", settings: { teleAwvEmail: false, alternateFalls: false } },
    may: grants(["editSurveys", "editReports"]),
  });
});

afterEach(() => {
  cleanup();
});

describe("SurveyDesignerPage", () => {
  test("is read-only for a user who is not an administrator", async () => {
    setMe(null);
    openDesigner(createSurvey());
    expect(await screen.findByText("Only administrators can change surveys.")).toBeDefined();
    expect(screen.getByLabelText("Survey title").matches(":disabled")).toBe(true);
    expect(screen.queryByRole("button", { name: "Save" })).toBeNull();
  });

  test("builds a page with a question and a condition from the engine's action list, kept in the local copy", async () => {
    const user = userEvent.setup();
    const survey = createSurvey();
    openDesigner(survey);

    await user.click(await screen.findByRole("button", { name: "Add page" }));
    expect(screen.getByLabelText("Page title")).toHaveProperty("value", "Unnamed page");
    await user.selectOptions(screen.getByLabelText("Type of the new question"), "radio");
    await user.click(screen.getByRole("button", { name: "Add question" }));
    const question = screen.getByRole("group", { name: "Question 1" });
    const fieldName = within(question).getByLabelText("Field name");
    expect((fieldName as HTMLInputElement).value).toMatch(/^field[0-9a-f]{24}$/);
    await user.clear(fieldName);
    await user.type(fieldName, "mood");
    await user.click(within(question).getByRole("button", { name: "Add choice" }));
    await user.type(within(question).getByLabelText("Label"), "Good");
    await user.click(within(question).getByRole("checkbox", { name: /Protected \(PII\)/ }));

    const pageConditions = screen.getByRole("group", { name: "Page conditions" });
    await user.click(within(pageConditions).getByRole("button", { name: "Add condition" }));
    const row = within(pageConditions).getByRole("group", { name: "Page conditions 1" });
    const actions = within(row).getByLabelText("Action");
    expect([...(actions as HTMLSelectElement).options].map((o) => o.value)).toEqual([...CONDITION_ACTIONS]);
    const fields = within(row).getByLabelText("Field");
    expect([...(fields as HTMLSelectElement).options].map((o) => o.value)).toEqual([
      "",
      "mood",
      "tenant.id",
      "tenant.location.id",
      "sex",
      "age",
    ]);
    await user.selectOptions(fields, "age");
    await user.selectOptions(actions, "Greater Than");
    await user.type(within(row).getByLabelText("Value"), "64");

    expect(screen.getByText("Unsaved changes")).toBeDefined();
    // The local copy is written once typing pauses.
    await waitFor(() => expect(stored()?.pages[0]?.conditions[0]?.fieldValue).toBe(64));
    const page = stored()?.pages[0];
    expect(page?.questions[0]).toMatchObject({
      type: "radio",
      fieldName: "mood",
      pii: true,
      choices: [{ value: "1", label: "Good" }],
    });
    expect(page?.conditions).toEqual([
      { fieldName: "age", action: "Greater Than", fieldValue: 64, joinType: "and" },
    ]);
    expect(window.localStorage.getItem("survey_last_id")).toBe(survey.id);
  }, 30_000);

  test("reorders pages and assigns a section", async () => {
    const user = userEvent.setup();
    openDesigner(createSurvey());
    await user.click(await screen.findByRole("button", { name: "Add section" }));
    await user.type(screen.getByLabelText("Section 1 title"), "History");
    await user.click(screen.getByRole("button", { name: "Add page" }));
    await user.type(screen.getByLabelText("Page title"), " A");
    await user.click(screen.getByRole("button", { name: "Add page" }));
    await user.clear(screen.getByLabelText("Page title"));
    await user.type(screen.getByLabelText("Page title"), "B");
    await user.selectOptions(screen.getByLabelText("Section"), "History");
    await user.click(screen.getByRole("button", { name: "Move page up" }));

    await waitFor(() => expect(stored()?.pages.map((p) => p.title)).toEqual(["B", "Unnamed page A"]));
    const saved = stored();
    expect(saved?.pages[0]?.section).toBe(saved?.sections[0]?.id);
    expect(screen.getByRole("heading", { name: "Page 1 of 2" })).toBeDefined();
  }, 30_000);
});

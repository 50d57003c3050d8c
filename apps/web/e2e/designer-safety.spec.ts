import { randomBytes } from "node:crypto";
import type { APIRequestContext, Dialog, Page } from "@playwright/test";
import { adminApi, DEMO_USERS, expect, expectNoSeriousA11yViolations, login, test } from "./fixtures";

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** A saved survey of two pages: a Yes/No question on the first, a text question on the second. */
async function createSurvey(api: APIRequestContext, title: string): Promise<string> {
  const id = hex(12);
  const response = await api.post(`/api/surveys/${id}`, {
    data: {
      id,
      title,
      description: "",
      canSubscribeTo: false,
      sections: [{ id: "s1", title: "Habits" }],
      pages: [
        {
          id: "p1",
          title: "Start",
          section: "s1",
          conditions: [],
          questions: [
            {
              id: "q1",
              type: "radio",
              fieldName: "smoker",
              title: "Do you smoke?",
              choices: [
                { value: "yes", label: "Yes" },
                { value: "no", label: "No" },
              ],
            },
            { id: "q2", type: "number", fieldName: "cups", title: "Cups of coffee a day?" },
          ],
        },
        {
          id: "p2",
          title: "Details",
          conditions: [],
          questions: [{ id: "q3", type: "text", fieldName: "since", title: "Since when?" }],
        },
      ],
      version: 0,
    },
  });
  expect(response.status()).toBe(200);
  return id;
}

/** Goes to `path`, accepting the browser's question about leaving unsaved work; answers whether it asked. */
async function gotoPastQuestion(page: Page, path: string): Promise<string[]> {
  const asked: string[] = [];
  const onDialog = (dialog: Dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  };
  page.on("dialog", onDialog);
  await page.goto(path);
  page.off("dialog", onDialog);
  return asked;
}

test.use({ viewport: { width: 1024, height: 768 } });

test.describe("designer safety", () => {
  test("warns before leaving unsaved work and keeps each survey's own edits", async ({ page, baseURL }) => {
    const api = await adminApi(baseURL ?? "");
    const suffix = hex(3);
    const first = await createSurvey(api, `First ${suffix}`);
    const second = await createSurvey(api, `Second ${suffix}`);

    await login(page, DEMO_USERS.admin, { redirect: `/surveys/${first}` });
    await expect(page.getByLabel("Survey title")).toHaveValue(`First ${suffix}`);
    await expect(page.getByText("(canSubscribeTo)")).toHaveCount(0);
    await expect(page.getByLabel("Other practices may subscribe to this survey")).not.toBeChecked();
    await page.getByLabel("Survey title").fill(`First edited ${suffix}`);

    // An in-app link asks first; Stay keeps the edit on screen.
    await page.getByRole("link", { name: "All surveys" }).click();
    const dialog = page.getByRole("dialog", { name: "Unsaved changes" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("This survey has changes that are not saved.");
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Stay" }).click();
    await expect(page).toHaveURL(new RegExp(`/surveys/${first}$`));
    await expect(page.getByLabel("Survey title")).toHaveValue(`First edited ${suffix}`);

    // Leave without saving: the edit stays in this browser.
    await page.getByRole("link", { name: "All surveys" }).click();
    await page
      .getByRole("dialog", { name: "Unsaved changes" })
      .getByRole("button", { name: "Leave without saving" })
      .click();
    await expect(page).toHaveURL(/\/surveys$/);

    // A second survey edited, then the first opened again: each keeps its own edit.
    await page.goto(`/surveys/${second}`);
    await expect(page.getByLabel("Survey title")).toHaveValue(`Second ${suffix}`);
    await page.getByLabel("Survey title").fill(`Second edited ${suffix}`);
    expect(await gotoPastQuestion(page, `/surveys/${first}`)).toEqual(["beforeunload"]);
    await expect(page.getByLabel("Survey title")).toHaveValue(`First edited ${suffix}`);
    await expect(page.getByRole("status").filter({ hasText: "Unsaved changes" })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("survey_last_id"))).toBe(first);
    await page.goto(`/surveys/${second}`);
    await expect(page.getByLabel("Survey title")).toHaveValue(`Second edited ${suffix}`);

    // Save and leave: the server has it and the page moves on.
    await page.getByRole("link", { name: "All surveys" }).click();
    await page
      .getByRole("dialog", { name: "Unsaved changes" })
      .getByRole("button", { name: "Save and leave" })
      .click();
    await expect(page).toHaveURL(/\/surveys$/);
    await expect
      .poll(async () => ((await (await api.get(`/api/surveys/${second}`)).json()) as { title: string }).title)
      .toBe(`Second edited ${suffix}`);
    await api.dispose();
  });

  test("asks before removing a page, a section or a question, and offers a choice field's values", async ({
    page,
    baseURL,
  }) => {
    const api = await adminApi(baseURL ?? "");
    const id = await createSurvey(api, `Removals ${hex(3)}`);
    await login(page, DEMO_USERS.admin, { redirect: `/surveys/${id}` });
    await expect(page.getByLabel("Page title")).toHaveValue("Start");

    await page.getByRole("button", { name: "Remove page" }).click();
    const removePage = page.getByRole("dialog", { name: "Remove page" });
    await expect(removePage).toContainText('Remove page 1 "Start"? Its 2 questions go with it.');
    await expectNoSeriousA11yViolations(page);
    await removePage.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByLabel("Page title")).toHaveValue("Start");
    await expect(page.getByText("All changes saved (version 1)")).toBeVisible();

    const cups = page.getByRole("group", { name: "Question 2", exact: true });
    await cups.getByRole("button", { name: "Remove question" }).click();
    const removeQuestion = page.getByRole("dialog", { name: "Remove question" });
    await expect(removeQuestion).toContainText('Remove question 2 "Cups of coffee a day?"?');
    await removeQuestion.getByRole("button", { name: "Remove", exact: true }).click();
    await expect(page.getByRole("group", { name: "Question 2", exact: true })).toHaveCount(0);

    await page.getByRole("button", { name: "Remove section 1" }).click();
    const removeSection = page.getByRole("dialog", { name: "Remove section 1" });
    await expect(removeSection).toContainText('Remove section 1 "Habits"? Its pages stay, in no section.');
    await removeSection.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByLabel("Section 1 title")).toHaveValue("Habits");

    // The second page's condition on the Yes/No question picks its value from the question's choices.
    await page.getByRole("button", { name: "Details" }).click();
    await page.getByRole("button", { name: "Add condition" }).first().click();
    const condition = page.getByRole("group", { name: "Page conditions 1" });
    await condition.getByLabel("Field", { exact: true }).selectOption("smoker");
    const value = condition.getByLabel("Value", { exact: true });
    await expect(value.locator("option")).toHaveText(["Choose a value", "Yes (yes)", "No (no)"]);
    await value.selectOption({ label: "Yes (yes)" });
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("All changes saved (version 2)")).toBeVisible();
    const saved = (await (await api.get(`/api/surveys/${id}`)).json()) as {
      pages: { questions: unknown[]; conditions: unknown[] }[];
    };
    expect(saved.pages[0]?.questions).toHaveLength(1);
    expect(saved.pages[1]?.conditions).toEqual([
      { fieldName: "smoker", fieldValue: "yes", action: "Equals", joinType: "and" },
    ]);
    await api.dispose();
  });

  test("edits the Spanish of the survey's texts beside the English, and saves them as its translations", async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    const api = await adminApi(baseURL ?? "");
    const id = await createSurvey(api, `Translated ${hex(3)}`);
    await login(page, DEMO_USERS.admin, { redirect: `/surveys/${id}` });
    await page.getByLabel("Título de la página (español)").fill("Inicio");
    const smoker = page.getByRole("group", { name: "Question 1", exact: true });
    await smoker.getByLabel("Título (español)").fill("¿Fuma usted?");
    await smoker.getByRole("group", { name: "Choice 1" }).getByLabel("Etiqueta (español)").fill("Sí");
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("All changes saved (version 2)")).toBeVisible();

    const saved = (await (await api.get(`/api/surveys/${id}`)).json()) as {
      translations?: unknown;
      pages: { translations?: unknown; questions: { translations?: unknown; choices?: unknown[] }[] }[];
    };
    // The survey's own fields are the spec's, sent as they are; its texts' Spanish lives on its pages.
    expect(saved.translations).toBeUndefined();
    expect(saved.pages[0]?.translations).toEqual({ es: { title: "Inicio" } });
    expect(saved.pages[0]?.questions[0]?.translations).toEqual({ es: { title: "¿Fuma usted?" } });
    expect(saved.pages[0]?.questions[0]?.choices).toEqual([
      { value: "yes", label: "Yes", translations: { es: { label: "Sí" } } },
      { value: "no", label: "No" },
    ]);
    // Untranslated texts stay English for Spanish readers: nothing was added for them.
    expect(saved.pages[1]?.translations).toBeUndefined();
    await api.dispose();
  });

  test("names each version's author and restores an earlier version", async ({ page, baseURL }) => {
    const api = await adminApi(baseURL ?? "");
    const suffix = hex(3);
    const id = await createSurvey(api, `Versions ${suffix}`);
    await login(page, DEMO_USERS.admin, { redirect: `/surveys/${id}` });
    await page.getByLabel("Survey title").fill(`Versions renamed ${suffix}`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("All changes saved (version 2)")).toBeVisible();

    await page.getByRole("button", { name: "Show versions" }).click();
    const versions = page.getByRole("list").filter({ hasText: "Version 2, saved" });
    await expect(versions.getByRole("listitem").first()).toContainText(/Version 2, saved .* by Ada Admin/);
    await expect(versions.getByRole("listitem").nth(1)).toContainText(/Version 1, saved .* by Ada Admin/);
    await expect(versions.getByRole("button", { name: "Restore version 2" })).toHaveCount(0);
    await versions.getByRole("button", { name: "Restore version 1" }).click();
    await expect(page.getByText("Version 1 is restored as unsaved changes.")).toBeVisible();
    await expect(page.getByLabel("Survey title")).toHaveValue(`Versions ${suffix}`);
    await expect(page.getByText("Unsaved changes", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("All changes saved (version 3)")).toBeVisible();
    const saved = (await (await api.get(`/api/surveys/${id}`)).json()) as { title: string; version: number };
    expect(saved).toMatchObject({ title: `Versions ${suffix}`, version: 3 });
    await api.dispose();
  });
});

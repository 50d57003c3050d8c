import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { type Locator, type Page } from "@playwright/test";
import { adminApi, DEMO_USERS, expect, expectNoSeriousA11yViolations, login, test } from "./fixtures";

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const OVERWRITE = "Would you like to overwrite their changes (otherwise, you will lose your changes)?";

const question = (page: Page, n: number) => page.getByRole("group", { name: `Question ${n}`, exact: true });

/** Adds a question of `type` to the page in the editor and fills its title and field name. */
async function addQuestion(page: Page, n: number, type: string, title: string, fieldName: string) {
  await page.getByLabel("Type of the new question").selectOption({ label: type });
  await page.getByRole("button", { name: "Add question" }).click();
  const editor = question(page, n);
  await editor.getByLabel(type === "Static text" ? "Text" : "Title", { exact: true }).fill(title);
  await editor.getByLabel("Field name", { exact: true }).fill(fieldName);
  return editor;
}

/** Fills condition row `row` (a group) with field, action and value. */
async function fillCondition(row: Locator, field: string, action: string, value: string) {
  await row.getByLabel("Field", { exact: true }).selectOption(field);
  await row.getByLabel("Action", { exact: true }).selectOption(action);
  // A field with choices offers its values as a list; any other takes the value typed.
  const input = row.getByLabel("Value", { exact: true });
  if ((await input.evaluate((element) => element.tagName)) === "SELECT") await input.selectOption(value);
  else await input.fill(value);
}

test.describe("survey designer", () => {
  test("builds a three-page survey with a page and a question condition, previews it and runs it on the tablet", async ({
    page,
    browser,
    baseURL,
  }) => {
    const title = `Designer journey ${hex(3)}`;
    await login(page, DEMO_USERS.admin);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Surveys" }).click();
    await page.getByRole("button", { name: "New survey" }).click();
    await expect(page).toHaveURL(/\/surveys\/[0-9a-f]{24}$/);
    const surveyId = page.url().split("/").pop() ?? "";
    await expect(page.getByLabel("Survey title")).toHaveValue("Unnamed Survey");
    await expect(page.getByLabel("Description")).toHaveValue("Unnamed Description");
    await page.getByLabel("Survey title").fill(title);

    await page.getByRole("button", { name: "Add page" }).click();
    await expect(page.getByLabel("Page title")).toHaveValue("Unnamed page");
    await page.getByLabel("Page title").fill("About you");
    const nickname = await addQuestion(page, 1, "Text", "What should we call you?", "nickname");
    await nickname.getByLabel("Required").check();
    const smoker = await addQuestion(page, 2, "Yes / No", "Do you smoke?", "smoker");
    await smoker.getByLabel("Required").check();
    await expect(smoker.getByRole("group", { name: "Choice 2" }).getByLabel("Value")).toHaveValue("no");
    const packs = await addQuestion(page, 3, "Number", "How many packs a day?", "packs");
    await packs.getByRole("button", { name: "Add condition" }).click();
    await fillCondition(packs.getByRole("group", { name: "Visible when 1" }), "smoker", "Equals", "yes");

    await page.getByRole("button", { name: "Add page" }).click();
    await page.getByLabel("Page title").fill("Smoking history");
    await page.getByRole("button", { name: "Add condition" }).first().click();
    await fillCondition(page.getByRole("group", { name: "Page conditions 1" }), "smoker", "Equals", "yes");
    await addQuestion(page, 1, "Text", "When did you start?", "started");

    await page.getByRole("button", { name: "Add page" }).click();
    await page.getByLabel("Page title").fill("All done");
    await addQuestion(page, 1, "Static text", "Thank you. Press Submit to send your answers.", "thanks");
    await expect(page.getByRole("status").filter({ hasText: "Unsaved changes" })).toBeVisible();

    // The local copy is written once the edits pause.
    await expect
      .poll(() =>
        page.evaluate(() => ({
          lastId: localStorage.getItem("survey_last_id"),
          copy: JSON.parse(localStorage.getItem("survey") ?? "null") as unknown,
        })),
      )
      .toMatchObject({ lastId: surveyId, copy: { saved: false, document: { title } } });

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("All changes saved (version 1)")).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Live preview with the tablet runner: the question condition, then the page condition.
    const preview = page.getByTestId("survey-preview");
    await expect(preview.getByRole("heading", { name: "About you" })).toBeVisible();
    await expect(preview.getByLabel("How many packs a day?")).toHaveCount(0);
    await preview.getByLabel(/What should we call you\?/).fill("Pat");
    await preview.getByRole("radio", { name: "Yes" }).check();
    await expect(preview.getByLabel("How many packs a day?")).toBeVisible();
    await preview.getByRole("button", { name: "Next" }).click();
    await expect(preview.getByRole("heading", { name: "Smoking history" })).toBeVisible();
    await page.getByLabel("Preview page").selectOption({ label: "1. About you" });
    await preview.getByRole("radio", { name: "No" }).check();
    await preview.getByRole("button", { name: "Next" }).click();
    await expect(preview.getByRole("heading", { name: "All done" })).toBeVisible();
    expect(JSON.parse(await page.getByLabel("Sample answers (JSON)").inputValue())).toEqual({
      nickname: "Pat",
      smoker: "no",
    });

    // The saved survey on the tablet: a non-smoker skips the smoking page.
    const api = await adminApi(baseURL ?? "");
    const suffix = hex(3);
    const created = await api.post("/api/patients", {
      data: {
        mrn: `DSG-${suffix}`,
        firstName: "Dana",
        lastName: `Designer${suffix}`,
        dob: "1948-05-06",
        sex: "F",
      },
    });
    expect(created.status()).toBe(201);
    const patient = (await created.json()) as { id: string; firstName: string; lastName: string };

    const tabletContext = await browser.newContext({
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
    });
    const tablet = await tabletContext.newPage();
    await login(tablet, DEMO_USERS.staff, { redirect: "/tablet" });
    await tablet.getByLabel("Find the patient").fill(patient.lastName);
    await tablet
      .getByRole("button", { name: new RegExp(`${patient.lastName}, ${patient.firstName}`) })
      .click();
    await tablet.getByRole("radio", { name: title }).check();
    await tablet.getByRole("button", { name: "Hand the tablet to the patient" }).click();
    await expect(tablet).toHaveURL(new RegExp(`/tablet/patient-survey/${surveyId}/pg/1$`));
    await expect(tablet.getByRole("heading", { level: 1, name: "About you" })).toBeVisible();
    await tablet.getByLabel(/What should we call you\?/).fill("Dee");
    await expect(tablet.getByLabel("How many packs a day?")).toHaveCount(0);
    await tablet.getByRole("radio", { name: "No" }).check();
    await tablet.getByRole("button", { name: "Next" }).click();
    await expect(tablet.getByRole("heading", { level: 1, name: "All done" })).toBeVisible();
    await expect(tablet).toHaveURL(new RegExp(`/tablet/patient-survey/${surveyId}/pg/3$`));
    await tablet.getByRole("button", { name: "Submit" }).click();
    await tablet.getByRole("button", { name: "Done" }).click();
    await expect(tablet).toHaveURL(/\/auth\/login/);
    await tabletContext.close();

    const results = await api.get("/api/surveyresults", { params: { duration: 5, patientId: patient.id } });
    const items = (
      (await results.json()) as { items: { id: string; isSubmitted: boolean; surveyVersion: number }[] }
    ).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ isSubmitted: true, surveyVersion: 1 });
    const detail = await api.get(`/api/surveyresults/${items[0]?.id}`);
    expect(((await detail.json()) as { answers: unknown }).answers).toEqual({
      nickname: "Dee",
      smoker: "no",
    });
    await api.dispose();
  });

  test("meets the conflict question when two people save the same survey, both ways", async ({
    browser,
    baseURL,
  }) => {
    const api = await adminApi(baseURL ?? "");
    const id = hex(12);
    const created = await api.post(`/api/surveys/${id}`, {
      data: {
        id,
        title: "Shared draft",
        description: "",
        canSubscribeTo: false,
        sections: [],
        pages: [],
        version: 0,
      },
    });
    expect(created.status()).toBe(200);

    const open = async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await login(page, DEMO_USERS.admin, { redirect: `/surveys/${id}` });
      await expect(page.getByLabel("Survey title")).toHaveValue("Shared draft");
      return { context, page };
    };
    const first = await open();
    const second = await open();

    await first.page.getByLabel("Survey title").fill("First edit");
    await first.page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(first.page.getByText("All changes saved (version 2)")).toBeVisible();

    // Yes: the second person's version becomes the server's and the save goes through.
    await second.page.getByLabel("Survey title").fill("Second edit");
    const asked: string[] = [];
    second.page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await second.page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(second.page.getByText("All changes saved (version 3)")).toBeVisible();
    expect(asked).toEqual([
      `This survey has been changed by someone else since you opened it (server version 2). ${OVERWRITE}`,
    ]);
    const afterYes = await api.get(`/api/surveys/${id}`);
    expect(await afterYes.json()).toMatchObject({ title: "Second edit", version: 3 });

    // No: the first person's edit is dropped, the page reloads with the server's copy.
    await first.page.getByLabel("Survey title").fill("Lost edit");
    first.page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await first.page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(first.page.getByText("All changes saved (version 3)")).toBeVisible();
    await expect(first.page.getByLabel("Survey title")).toHaveValue("Second edit");
    expect(asked[1]).toBe(
      `This survey has been changed by someone else since you opened it (server version 3). ${OVERWRITE}`,
    );
    const afterNo = await api.get(`/api/surveys/${id}`);
    expect(await afterNo.json()).toMatchObject({ title: "Second edit", version: 3 });

    await first.context.close();
    await second.context.close();
    await api.dispose();
  });

  test("keeps unsaved edits through a reload and shows the differences between versions", async ({
    page,
    baseURL,
  }) => {
    const api = await adminApi(baseURL ?? "");
    const id = hex(12);
    const base = { id, title: "Versioned", description: "", canSubscribeTo: false, sections: [], version: 0 };
    const page1 = { id: "p1", title: "Start", conditions: [], questions: [] };
    expect((await api.post(`/api/surveys/${id}`, { data: { ...base, pages: [page1] } })).status()).toBe(200);

    await login(page, DEMO_USERS.admin, { redirect: `/surveys/${id}` });
    await page.getByLabel("Page title").fill("Welcome");
    // Reloading with unsaved work meets the browser's own question first.
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    expect(asked).toEqual(["beforeunload"]);
    await expect(page.getByLabel("Page title")).toHaveValue("Welcome");
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("All changes saved (version 2)")).toBeVisible();

    await page.getByRole("button", { name: "Show versions" }).click();
    await expect(page.getByText(/^Version 2, saved /)).toBeVisible();
    await expect(page.getByText(/^Version 1, saved /)).toBeVisible();
    await page.getByRole("button", { name: "Show differences" }).click();
    const row = page.getByRole("row", { name: /pages\[p1\]\.title/ });
    await expect(row).toContainText("Start");
    await expect(row).toContainText("Welcome");
    await api.dispose();
  });

  test("exports and imports JSON checked by the survey schema", async ({ page, baseURL }) => {
    const api = await adminApi(baseURL ?? "");
    const id = hex(12);
    const survey = {
      id,
      title: "Exported",
      description: "d",
      canSubscribeTo: true,
      sections: [],
      pages: [{ id: "p1", title: "One", conditions: [], questions: [] }],
      version: 0,
    };
    expect((await api.post(`/api/surveys/${id}`, { data: survey })).status()).toBe(200);
    await login(page, DEMO_USERS.admin, { redirect: `/surveys/${id}` });

    const downloaded = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export JSON" }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe("exported.json");
    const exported = JSON.parse(readFileSync(await file.path(), "utf8")) as unknown;
    expect(exported).toEqual({ ...survey, version: 1 });

    const input = page.locator('input[type="file"]');
    await input.setInputFiles({
      name: "broken.json",
      mimeType: "application/json",
      buffer: Buffer.from(
        JSON.stringify({ title: "x", pages: [{ id: "p", questions: [{ id: "q", type: "slider" }] }] }),
      ),
    });
    await expect(page.getByRole("alert").filter({ hasText: "The file is not a valid survey" })).toContainText(
      "pages.0.questions.0.type",
    );
    await input.setInputFiles({
      name: "other.json",
      mimeType: "application/json",
      buffer: Buffer.from(
        JSON.stringify({ ...survey, id: "ffffffffffffffffffffffff", title: "Imported", version: 9 }),
      ),
    });
    await expect(page.getByLabel("Survey title")).toHaveValue("Imported");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("All changes saved (version 2)")).toBeVisible();
    const saved = await api.get(`/api/surveys/${id}`);
    expect(await saved.json()).toMatchObject({ id, title: "Imported", version: 2 });
    await api.dispose();
  });

  test("shows another practice's subscribable survey read-only, with its preview", async ({
    page,
    baseURL,
  }) => {
    const api = await adminApi(baseURL ?? "");
    const id = hex(12);
    const title = `Shared ${hex(3)}`;
    const survey = {
      id,
      title,
      description: "Offered to other practices",
      canSubscribeTo: true,
      sections: [],
      pages: [
        {
          id: "p1",
          title: "Shared page",
          conditions: [],
          questions: [{ id: "q1", type: "text", fieldName: "mood", title: "How are you today?" }],
        },
      ],
      version: 0,
    };
    expect((await api.post(`/api/surveys/${id}`, { data: survey })).status()).toBe(200);
    await api.dispose();

    await login(page, DEMO_USERS.multi, { redirect: "/surveys" });
    await page.getByLabel("Tenant").selectOption("demo2");
    await expect(page.getByLabel("Tenant")).toHaveValue("demo2");
    await page.goto("/surveys");
    const row = page.getByRole("row", { name: new RegExp(title) });
    await expect(row).toContainText("Shared with you (read-only)");
    await expect(row.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
    await row.getByRole("button", { name: /^Edit/ }).click();

    await expect(page.getByText("Read-only, version 1")).toBeVisible();
    await expect(page.getByText("This survey is shared by another practice.")).toBeVisible();
    await expect(page.getByLabel("Survey title")).toBeDisabled();
    await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
    await expect(page.getByTestId("survey-preview").getByLabel("How are you today?")).toBeEditable();
    expect(await page.evaluate(() => localStorage.getItem("survey"))).toBeNull();
  });
});

import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { adminApi, DEMO_USERS, expect, expectNoSeriousA11yViolations, login, test } from "./fixtures";

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const today = () => new Date().toISOString().slice(0, 10);

/** A spreadsheet would run this as a formula; the export must write it as text. */
const FORMULA_NAME = '=HYPERLINK("http://evil.test","Click")';

interface Made {
  surveyId: string;
  surveyTitle: string;
  patient: { id: string; mrn: string; firstName: string; lastName: string };
  resultId: string;
}

/** A survey with labelled choices, a patient whose first name looks like a formula, and a submitted result. */
async function makeRecords(api: APIRequestContext, suffix: string): Promise<Made> {
  const surveyId = hex(12);
  const surveyTitle = `Habits ${suffix}`;
  expect(
    (
      await api.post(`/api/surveys/${surveyId}`, {
        data: {
          id: surveyId,
          title: surveyTitle,
          description: "",
          canSubscribeTo: false,
          sections: [],
          pages: [
            {
              id: "p1",
              title: "Habits",
              conditions: [],
              questions: [
                {
                  id: "q1",
                  type: "radio",
                  fieldName: "smoker",
                  title: "Do you smoke?",
                  choices: [
                    { value: "yes", label: "Yes, every day" },
                    { value: "no", label: "No, never" },
                  ],
                },
                { id: "q2", type: "text", fieldName: "marker", title: "Anything else?" },
              ],
            },
          ],
          version: 0,
        },
      })
    ).status(),
  ).toBe(200);
  const created = await api.post("/api/patients", {
    data: {
      mrn: `ST-${suffix}`,
      firstName: FORMULA_NAME,
      lastName: `Tools${suffix}`,
      dob: "1952-11-02",
      sex: "M",
    },
  });
  expect(created.status()).toBe(201);
  const patient = (await created.json()) as Made["patient"];
  const saved = await api.post("/api/surveyresults", {
    data: {
      clientRequestId: `staff-tools-${suffix}`,
      surveyId,
      patientId: patient.id,
      isSubmitted: true,
      answers: { smoker: "yes", marker: `marker-${suffix}` },
    },
  });
  expect(saved.status()).toBe(200);
  const { id: resultId } = (await saved.json()) as { id: string };
  return { surveyId, surveyTitle, patient, resultId };
}

/** A report listing each result's marker answer; not clinical, so names never reach it. */
async function makeReport(api: APIRequestContext, title: string): Promise<string> {
  const id = hex(12);
  const response = await api.post(`/api/reports/${id}`, {
    data: {
      id,
      title,
      script: "return { rows: data.results.filter((r) => r.answers.marker), total: data.results.length };",
      markup:
        '<p id="total">{{total}} results</p><ul>{{#each rows}}<li class="row">{{answers.marker}}</li>{{/each}}</ul>',
      mock: { results: [] },
      clinical: false,
      version: 0,
    },
  });
  expect(response.status()).toBe(200);
  return id;
}

const output = (page: Page) => page.frameLocator('iframe[title="Report output"]');

test.use({ viewport: { width: 1024, height: 768 } });

test.describe("staff tools", () => {
  test("staff open a report, pick a period, run it, print and save it; no code editor", async ({
    page,
    baseURL,
  }) => {
    const api = await adminApi(baseURL ?? "");
    const suffix = hex(3);
    await makeRecords(api, suffix);
    const title = `Markers ${suffix}`;
    const reportId = await makeReport(api, title);
    await api.dispose();

    await login(page, DEMO_USERS.staff, { redirect: "/reports" });
    await expect(page.getByRole("link", { name: `Edit ${title}` })).toHaveCount(0);
    await page.getByRole("link", { name: `Open ${title}` }).click();
    await expect(page).toHaveURL(new RegExp(`/reports/${reportId}$`));
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByLabel("Script")).toHaveCount(0);
    await expect(page.getByLabel("Markup")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Print" })).toBeDisabled();

    await page.getByLabel("Results started").selectOption({ label: "Today" });
    await page.getByRole("button", { name: "Run report" }).click();
    await expect(page.getByText("Report for Today.")).toBeVisible();
    await expect(
      output(page)
        .locator("li.row")
        .filter({ hasText: `marker-${suffix}` }),
    ).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);

    // A range of days: today's results, then a range long past with none.
    await page.getByLabel("Results started").selectOption({ label: "Between two dates" });
    await page.getByLabel("First day").fill(today());
    await page.getByLabel("Last day").fill(today());
    await page.getByRole("button", { name: "Run report" }).click();
    await expect(page.getByText(`Report for ${today()}.`)).toBeVisible();
    await expect(
      output(page)
        .locator("li.row")
        .filter({ hasText: `marker-${suffix}` }),
    ).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);

    const downloaded = page.waitForEvent("download");
    await page.getByRole("button", { name: "Save as HTML" }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe(`markers-${suffix}-${today()}.html`);
    const html = readFileSync(await file.path(), "utf8");
    expect(html).toContain(`marker-${suffix}`);
    expect(html).not.toContain(FORMULA_NAME);

    const frame = page.frames().find((f) => f.url() === "about:srcdoc");
    await frame?.evaluate(() => {
      window.print = () => document.body.setAttribute("data-printed", "yes");
    });
    await page.getByRole("button", { name: "Print" }).click();
    await expect(output(page).locator("body")).toHaveAttribute("data-printed", "yes");

    await page.getByLabel("First day").fill("2020-01-01");
    await page.getByLabel("Last day").fill("2020-01-31");
    await page.getByRole("button", { name: "Run report" }).click();
    await expect(page.getByText("Report for 2020-01-01 to 2020-01-31.")).toBeVisible();
    await expect(output(page).locator("#total")).toHaveText("0 results");
  });

  test("a result and a patient print with the practice, the patient's identifiers and every answer", async ({
    page,
    baseURL,
  }) => {
    const api = await adminApi(baseURL ?? "");
    const suffix = hex(3);
    const made = await makeRecords(api, suffix);
    await api.dispose();

    await login(page, DEMO_USERS.staff, { redirect: `/results/${made.resultId}` });
    await expect(page.getByRole("button", { name: "Download" })).toHaveCount(0);
    await page.getByRole("link", { name: "Print" }).click();
    await expect(page).toHaveURL(new RegExp(`/results/${made.resultId}/print$`));
    const view = page.locator(".print-view");
    await expect(view.getByRole("heading", { level: 1 })).toHaveText(`Survey result: ${made.surveyTitle}`);
    await expect(view.locator(".print-practice")).toHaveText("Demo Family Practice");
    const patient = view.getByRole("definition");
    await expect(patient.filter({ hasText: `Tools${suffix}, ${FORMULA_NAME}` })).toHaveCount(1);
    await expect(patient.filter({ hasText: `ST-${suffix}` })).toHaveCount(1);
    await expect(patient.filter({ hasText: "1952-11-02" })).toHaveCount(1);
    const answers = view.locator(".print-answers");
    await expect(answers.locator("dt")).toHaveText(["Do you smoke?", "Anything else?"]);
    await expect(answers.locator("dd")).toHaveText(["Yes, every day", `marker-${suffix}`]);
    await expectNoSeriousA11yViolations(page);

    // On paper: no portal header, no buttons.
    await page.emulateMedia({ media: "print" });
    await expect(page.locator(".topbar")).toBeHidden();
    await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
    await expect(answers).toBeVisible();
    await page.emulateMedia({ media: "screen" });
    await page.evaluate(() => {
      window.print = () => document.body.setAttribute("data-printed", "yes");
    });
    await page.getByRole("button", { name: "Print" }).click();
    await expect(page.locator("body")).toHaveAttribute("data-printed", "yes");

    await page.goto(`/patients/${made.patient.id}`);
    await page.getByRole("link", { name: "Print" }).click();
    await expect(page).toHaveURL(new RegExp(`/patients/${made.patient.id}/print$`));
    await expect(view.getByRole("heading", { level: 1 })).toHaveText(
      `Patient record: ${FORMULA_NAME} Tools${suffix}`,
    );
    await expect(view.locator(".print-practice")).toHaveText("Demo Family Practice");
    await expect(view.getByRole("heading", { level: 3, name: made.surveyTitle })).toBeVisible();
    await expect(view.locator(".print-answers dd")).toHaveText(["Yes, every day", `marker-${suffix}`]);
    await expectNoSeriousA11yViolations(page);
  });

  test("exports the filtered lists as CSV with a formula-looking name written as text", async ({
    page,
    baseURL,
  }) => {
    const api = await adminApi(baseURL ?? "");
    const suffix = hex(3);
    const made = await makeRecords(api, suffix);
    await api.dispose();

    await login(page, DEMO_USERS.staff, { redirect: `/patients/${made.patient.id}` });
    const link = page.getByRole("link", {
      name: `Export CSV of survey results of ${FORMULA_NAME} Tools${suffix}`,
    });
    await expect(link).toHaveAttribute(
      "href",
      `/api/surveyresults/export?duration=5&patientId=${made.patient.id}`,
    );
    const downloaded = page.waitForEvent("download");
    await link.click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe(`survey-results-${today()}.csv`);
    const lines = readFileSync(await file.path(), "utf8").split("\r\n");
    expect(lines[0]).toBe(
      "\uFEFFStarted (UTC),Last saved (UTC),Survey,Survey version,Status,Last name,First name,MRN,Date of birth,Result id,Patient id",
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(
      `,${made.surveyTitle},1,Submitted,Tools${suffix},"'=HYPERLINK(""http://evil.test"",""Click"")",ST-${suffix},1952-11-02,${made.resultId},`,
    );

    const patients = await page.request.get(`/api/patients/export?q=${encodeURIComponent(`Tools${suffix}`)}`);
    expect(patients.headers()["content-disposition"]).toBe(`attachment; filename="patients-${today()}.csv"`);
    const text = await patients.text();
    expect(text.split("\r\n")[1]).toBe(
      `Tools${suffix},"'=HYPERLINK(""http://evil.test"",""Click"")",ST-${suffix},1952-11-02,M,,,${made.patient.id}`,
    );
  });

  test("an admin uploads results in bulk and reads the row report", async ({ page, baseURL }) => {
    const api = await adminApi(baseURL ?? "");
    const suffix = hex(3);
    const made = await makeRecords(api, suffix);
    await api.dispose();

    await login(page, DEMO_USERS.admin);
    await expect(page.getByRole("heading", { name: "Today", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Administration" }).click();
    await page.getByRole("link", { name: "Batch upload" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Batch upload" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const csv = [
      "externalId,mrn,surveyId,smoker,marker",
      `ext-${suffix}-1,ST-${suffix},${made.surveyId},no,from the old system`,
      `ext-${suffix}-2,NO-SUCH-${suffix},${made.surveyId},yes,`,
      `ext-${suffix}-3,ST-${suffix},,yes,`,
    ].join("\n");
    await page.getByLabel("Format").selectOption("json");
    await page
      .getByLabel("File")
      .setInputFiles({ name: "import.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await expect(page.getByLabel("Format")).toHaveValue("csv");
    await expect(page.getByLabel("Content")).toHaveValue(csv);
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByRole("status").filter({ hasText: "imported" })).toHaveText(
      "1 of 3 rows of import.csv imported; 2 refused.",
    );
    const refused = page.getByRole("table", { name: "Rows refused" });
    await expect(refused.getByRole("row")).toHaveCount(3);
    await expect(refused.getByRole("row").nth(1)).toContainText("2");
    await expect(refused.getByRole("row").nth(1)).toContainText("mrn");
    await expect(refused.getByRole("row").nth(2)).toContainText("3");
    await expect(refused.getByRole("row").nth(2)).toContainText("surveyId");
    await expectNoSeriousA11yViolations(page);

    const results = await page.request.get("/api/surveyresults", {
      params: { duration: 5, patientId: made.patient.id },
    });
    expect(((await results.json()) as { items: unknown[] }).items).toHaveLength(2);

    // An upload that cannot be read says so beside the content.
    await page.getByLabel("Content").fill("not,a,header\n1,2,3");
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(
      page.getByText("The CSV header must name externalId, surveyId and patientId or mrn."),
    ).toBeVisible();
    await expect(page.getByLabel("Content")).toHaveAttribute("aria-invalid", "true");
  });
});

import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import {
  adminApi,
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  submittable,
  test,
} from "./fixtures";

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const CORE_CARE_WELLNESS_EXAM = "64a1c0de0000000000000002";

interface TestPatient {
  id: string;
  mrn: string;
  firstName: string;
  lastName: string;
}

async function createPatient(api: APIRequestContext, lastName: string): Promise<TestPatient> {
  const response = await api.post("/api/patients", {
    data: { mrn: `SD-${hex(3)}`, firstName: "Hazel", lastName, dob: "1947-02-11", sex: "F" },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as TestPatient;
}

/** A one-page survey of the practice, so the hand-over's survey is told apart from the assigned one. */
async function createSurvey(api: APIRequestContext, title: string): Promise<string> {
  const id = hex(12);
  const response = await api.post(`/api/surveys/${id}`, {
    data: {
      id,
      title,
      description: "Start on tablet",
      canSubscribeTo: false,
      version: 0,
      sections: [],
      pages: [
        {
          id: "p1",
          title: "Only page",
          conditions: [],
          questions: [{ id: "q1", type: "text", fieldName: "note", title: "Anything to tell us?" }],
        },
      ],
    },
  });
  expect(response.status()).toBe(200);
  return id;
}

test.describe("start on tablet", () => {
  test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true });
  let api: APIRequestContext;
  let patient: TestPatient;
  let otherSurvey: { id: string; title: string };

  test.beforeEach(async ({ baseURL }) => {
    api = await adminApi(baseURL ?? "");
    patient = await createPatient(api, `Tabletson${hex(3)}`);
    const assigned = await api.post(`/api/patients/${patient.id}/surveys`, {
      data: { surveyId: CORE_CARE_WELLNESS_EXAM },
    });
    expect(assigned.status()).toBe(201);
    otherSurvey = { id: "", title: `Check-in ${hex(3)}` };
    otherSurvey.id = await createSurvey(api, otherSurvey.title);
  });

  test.afterEach(async () => {
    await api.dispose();
  });

  test("from a patient's row opens the hand-over with that patient and their assigned survey chosen", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.staff);
    await expect(page).toHaveURL(/\/today$/);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Patients" }).click();
    // The list pages; the search finds the patient wherever they are in it.
    await page.getByRole("combobox", { name: "Search patients" }).fill(patient.lastName);
    const row = page.locator("table.data tbody tr").filter({ hasText: patient.lastName });
    await row.getByRole("link", { name: new RegExp(`Start on tablet for ${patient.lastName}`) }).click();

    await expect(page).toHaveURL(new RegExp(`/tablet\\?patientId=${patient.id}$`));
    await expect(page.getByRole("heading", { name: "Start a survey on this tablet" })).toBeVisible();
    await expect(page.getByText(`${patient.lastName}, ${patient.firstName}`)).toBeVisible();
    await expect(page.getByRole("radio", { name: "Core Care Wellness Exam" })).toBeChecked();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("button", { name: "Hand the tablet to the patient" }).tap();
    await expect(page).toHaveURL(new RegExp(`/tablet/patient-survey/${CORE_CARE_WELLNESS_EXAM}/pg/1$`));
    // The staff session has ended in this browser: the patient credential reaches no staff data.
    const staffCall = await page.evaluate(async () => {
      const res = await fetch("/api/patients", { headers: { "X-Requested-With": "XMLHttpRequest" } });
      return res.status;
    });
    expect([401, 403]).toContain(staffCall);
  });

  test("from a survey on the patient's page chooses that survey", async ({ page }) => {
    await api.post(`/api/patients/${patient.id}/surveys`, { data: { surveyId: otherSurvey.id } });
    await login(page, DEMO_USERS.staff, { redirect: `/patients/${patient.id}` });
    await expect(
      page.getByRole("heading", { name: `${patient.firstName} ${patient.lastName}` }),
    ).toBeVisible();
    // The page's own button, and one per assigned survey.
    await expect(page.getByRole("link", { name: "Start on tablet", exact: true })).toHaveAttribute(
      "href",
      `/tablet?patientId=${patient.id}`,
    );
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("link", { name: `Start on tablet ${otherSurvey.title}` }).click();

    await expect(page.getByRole("radio", { name: otherSurvey.title })).toBeChecked();
    await page.getByRole("button", { name: "Hand the tablet to the patient" }).tap();
    await expect(page).toHaveURL(new RegExp(`/tablet/patient-survey/${otherSurvey.id}/pg/1$`));
    await expect(page.getByLabel("Anything to tell us?")).toBeVisible();
  });
});

test.describe("Today", () => {
  test("shows the practice's surveys in progress and submitted today, its open safety alerts, and what needs attention", async ({
    page,
    baseURL,
  }) => {
    const api = await adminApi(baseURL ?? "");
    const patient = await createPatient(api, `Todayson${hex(3)}`);
    const save = (body: Record<string, unknown>) =>
      api.post("/api/surveyresults", {
        data: {
          clientRequestId: `today-${hex(6)}`,
          patientId: patient.id,
          surveyId: CORE_CARE_WELLNESS_EXAM,
          ...body,
        },
      });
    expect((await save({ isSubmitted: false, answers: { health: { general: "good" } } })).status()).toBe(200);
    const submitted = await save({
      isSubmitted: true,
      answers: submittable(CORE_CARE_WELLNESS_EXAM, {
        depression: { phq9LittleInterest: "several days", phq9SelfHarm: "several days" },
      }),
    });
    expect(submitted.status()).toBe(200);
    const { id: submittedId } = (await submitted.json()) as { id: string };
    await api.dispose();

    await login(page, DEMO_USERS.staff);
    await expect(page.getByRole("heading", { name: "Today", level: 1 })).toBeVisible();
    const inProgress = page.getByRole("table", { name: "Surveys in progress" });
    await expect(inProgress.getByRole("row").filter({ hasText: patient.lastName })).toContainText(
      "Core Care Wellness Exam",
    );
    await expect(inProgress.getByRole("row").filter({ hasText: patient.lastName })).toContainText("Tablet");
    const submittedToday = page.getByRole("table", { name: "Surveys submitted today" });
    await expect(submittedToday.getByRole("row").filter({ hasText: patient.lastName })).toBeVisible();
    const alert = page
      .locator(".safety-alert")
      .filter({ has: page.locator(`a[href="/results/${submittedId}"]`) });
    await expect(alert).toContainText("PHQ-9 item 9");
    await expect(page.getByRole("table", { name: "Deliveries needing attention" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await submittedToday
      .getByRole("row")
      .filter({ hasText: patient.lastName })
      .getByRole("link", {
        name: "Core Care Wellness Exam",
      })
      .click();
    await expect(page).toHaveURL(new RegExp(`/results/${submittedId}$`));
  });

  test("shows a failed load with Retry instead of waiting for good", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/account" });
    let failing = true;
    await page.route("**/api/surveyresults?*", async (route) => {
      if (failing)
        await route.fulfill({
          status: 503,
          json: { responseStatus: { status: 503, message: "The server is busy." } },
        });
      else await route.continue();
    });
    await page.goto("/today");
    const table = page.getByRole("table", { name: "Surveys in progress" });
    await expect(table.locator(".load-error")).toContainText(
      "The surveys in progress could not be loaded. The server is busy.",
    );
    await expect(page.getByText("Loading...")).toHaveCount(0);
    failing = false;
    await table.getByRole("button", { name: "Retry" }).click();
    await expect(table.locator(".load-error")).toHaveCount(0);
  });
});

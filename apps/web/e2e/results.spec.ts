import { DEMO_USERS, expect, expectNoSeriousA11yViolations, login, submittable, test } from "./fixtures";

const XHR = { "X-Requested-With": "XMLHttpRequest" };

test.describe("survey results", () => {
  test("filters by duration and survey, opens a result read-only, downloads and removes it", async ({
    page,
  }) => {
    // Removing a clinical record is an admin act (kept, restorable); plain users are offered no Remove.
    await login(page, DEMO_USERS.admin, { redirect: "/results" });
    const lastName = `Results${Date.now()}`;
    const patient = (await (
      await page.request.post("/api/patients", {
        headers: XHR,
        data: { firstName: "Rita", lastName, mrn: `R-${Date.now()}`, dob: "1951-01-01", sex: "F" },
      })
    ).json()) as { id: string };
    const surveys = (await (await page.request.get("/api/surveys")).json()) as {
      items: { id: string; title: string }[];
    };
    const survey = surveys.items.find((s) => s.title === "Welcome to Medicare Exam");
    expect(survey).toBeDefined();
    const saved = await page.request.post("/api/surveyresults", {
      headers: XHR,
      data: {
        clientRequestId: `e2e-${Date.now()}`,
        surveyId: survey?.id,
        patientId: patient.id,
        isSubmitted: true,
        answers: submittable(survey?.id),
      },
    });
    expect(saved.ok()).toBe(true);
    const { id } = (await saved.json()) as { id: string };

    await page.reload();
    const duration = page.getByLabel("Duration");
    await expect(duration.locator("option")).toHaveText(["Since Yesterday", "Today", "All"]);
    await expect(duration).toHaveValue("1");
    const surveySelect = page.getByLabel("Survey", { exact: true });
    await expect(surveySelect.locator("option").nth(1)).toHaveText("Core Care Wellness Exam");
    await expect(surveySelect.locator("option").nth(2)).toHaveText("Welcome to Medicare Exam");
    const row = page.locator("table.data tbody tr").filter({ hasText: `Rita` }).filter({ hasText: lastName });
    await expect(row).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);

    await duration.selectOption({ label: "Since Yesterday" });
    await expect(page).toHaveURL(/duration=0/);
    await expect(row).toHaveCount(1);
    await surveySelect.selectOption({ label: "Core Care Wellness Exam" });
    await expect(row).toHaveCount(0);
    await surveySelect.selectOption({ label: "Welcome to Medicare Exam" });
    await expect(row).toHaveCount(1);

    const download = page.waitForEvent("download");
    await row.getByRole("button", { name: /^Download / }).click();
    expect((await download).suggestedFilename()).toBe(`survey-result-${id}.json`);

    await row.getByRole("link", { name: "Welcome to Medicare Exam" }).click();
    await expect(page).toHaveURL(new RegExp(`/results/${id}$`));
    await expect(page.getByRole("heading", { name: "Welcome to Medicare Exam" })).toBeVisible();
    await expect(page.getByText("Submitted", { exact: true })).toBeVisible();
    await expect(page.locator("input, textarea, select")).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("button", { name: "Remove" }).click();
    await page.getByRole("dialog", { name: "Remove record" }).getByRole("button", { name: "Yes" }).click();
    await expect(page).toHaveURL(/\/results$/);
    await page.getByLabel("Duration").selectOption({ label: "All" });
    await expect(page.locator("table.data tbody tr").filter({ hasText: lastName })).toHaveCount(0);
  });

  test("sends a result after confirming the patient and choosing an interface", async ({ page }) => {
    await login(page, DEMO_USERS.admin, { redirect: "/results" });
    const stamp = Date.now();
    const patient = (await (
      await page.request.post("/api/patients", {
        headers: XHR,
        data: {
          firstName: "Sid",
          lastName: `Sender${stamp}`,
          mrn: `S-${stamp}`,
          dob: "1949-02-03",
          sex: "M",
        },
      })
    ).json()) as { id: string };
    const surveys = (await (await page.request.get("/api/surveys")).json()) as { items: { id: string }[] };
    const saved = await page.request.post("/api/surveyresults", {
      headers: XHR,
      data: {
        clientRequestId: `e2e-send-${stamp}`,
        surveyId: surveys.items[0]?.id,
        patientId: patient.id,
        isSubmitted: true,
        answers: submittable(surveys.items[0]?.id),
      },
    });
    const { id } = (await saved.json()) as { id: string };
    const created = await page.request.post("/api/interfaces", {
      headers: XHR,
      data: {
        name: `EHR ${stamp}`,
        type: "hl7-mllp",
        host: "127.0.0.1",
        port: 2575,
        sendingApplication: "CORECARE",
        sendingFacility: "DEMO",
        receivingApplication: "EHR",
        receivingFacility: "DEMO",
      },
    });
    expect(created.ok(), await created.text()).toBe(true);

    await page.goto(`/results/${id}`);
    await page.getByRole("button", { name: "Send" }).click();
    const dialog = page.getByRole("dialog", { name: "Send result" });
    await expect(dialog).toContainText("Are you sure you want to do this?");
    await expect(dialog).toContainText(`Patient: Sid Sender${stamp}`);
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeVisible();
    const confirm = dialog.getByRole("button", { name: "Confirm" });
    await expect(confirm).toBeDisabled();
    await expectNoSeriousA11yViolations(page);
    await expect(dialog.getByLabel("Location").locator("option")).toContainText(["Main Clinic"]);
    await dialog.getByLabel("Location").selectOption({ label: "Main Clinic" });
    await dialog.getByLabel("Interface").selectOption({ label: `EHR ${stamp}` });
    await confirm.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText("The result is queued for delivery.")).toBeVisible();
  });
});

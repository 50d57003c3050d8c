import type { Page } from "@playwright/test";
import { DEMO_USERS, expect, expectNoSeriousA11yViolations, login, test } from "./fixtures";

const XHR = { "X-Requested-With": "XMLHttpRequest" };

async function createPatient(
  page: Page,
  lastName: string,
  firstName = "Pat",
  mrn = `MRN-${Date.now()}-${Math.random()}`,
) {
  const response = await page.request.post("/api/patients", {
    headers: XHR,
    data: { firstName, lastName, mrn: mrn.slice(0, 60), dob: "1950-04-02", sex: "F" },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; mrn: string; firstName: string; lastName: string };
}

test.describe("patients", () => {
  test("creates a patient with the dropdowns and phone formatting on blur, then edits it", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/patients/new" });
    await expect(page.getByRole("heading", { name: "New patient" })).toBeVisible();
    await expect(page.getByLabel("Ethnicity").locator("option")).toHaveText([
      "Choose...",
      "Hispanic or Latino",
      "Non Hispanic or Latino",
      "Other or Undetermined",
    ]);
    await expect(page.getByLabel("Race").locator("option")).toHaveCount(16);
    const states = page.getByLabel("State").locator("option");
    await expect(states).toHaveCount(59);
    for (const code of ["DC", "PR", "GU", "VI", "AS", "MP", "MH", "PW", "AL", "WY"]) {
      await expect(page.getByLabel("State").locator(`option[value="${code}"]`)).toHaveCount(1);
    }
    await expectNoSeriousA11yViolations(page);

    const mrn = `E2E-${Date.now()}`;
    await page.getByLabel("First name").fill("Greta");
    await page.getByLabel("Last name").fill("Garbo");
    await page.getByLabel("MRN").fill(mrn);
    await page.getByLabel("Date of birth").fill("1948-09-18");
    await page.getByLabel("Sex").selectOption("F");
    await page.getByLabel("Phone").fill("(555) 123 4567");
    await page.getByLabel("Phone").blur();
    await expect(page.getByLabel("Phone")).toHaveValue("555-123-4567");
    await page.getByLabel("State").selectOption("DC");
    await page.getByLabel("Ethnicity").selectOption("Non Hispanic or Latino");
    await page.getByLabel("Race").selectOption("Multiracial");
    // Kept on the record: the Tele-AWV e-mail and pages start in it.
    await page.getByLabel("Preferred language").selectOption("es");
    await page.getByRole("button", { name: "Create patient" }).click();
    await expect(page.getByRole("heading", { name: "Greta Garbo" })).toBeVisible();
    await expect(page).toHaveURL(/\/patients\/[0-9a-f]{24}$/);

    await page.getByLabel("Phone").fill("5550001");
    await page.getByLabel("Phone").blur();
    await expect(page.getByLabel("Phone")).toHaveValue("555-0001");
    await page.getByLabel("City", { exact: true }).fill("Washington");
    await page.getByRole("button", { name: "Save patient" }).click();
    await expect(page.getByText("Patient saved.")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("City", { exact: true })).toHaveValue("Washington");
    await expect(page.getByLabel("State")).toHaveValue("DC");
    await expect(page.getByLabel("Phone")).toHaveValue("555-0001");
    await expect(page.getByLabel("Preferred language")).toHaveValue("es");
  });

  test("suggests at most 5 patients while typing and opens the chosen one", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/patients" });
    const family = `Typeahead${Date.now()}`;
    for (let i = 0; i < 6; i++) await createPatient(page, family, `Kid${i}`);
    const search = page.getByRole("combobox", { name: "Search patients" });
    await search.fill(family.slice(0, 12));
    const options = page.getByRole("option");
    await expect(options).toHaveCount(5);
    await search.press("ArrowDown");
    await search.press("Enter");
    await expect(page).toHaveURL(/\/patients\/[0-9a-f]{24}$/);
    await expect(page.getByRole("heading", { name: new RegExp(family) })).toBeVisible();
  });

  test("sorts by a header, edits inline with the required-field alert, downloads and removes", async ({
    page,
  }) => {
    // Removing a clinical record is an admin act (kept, restorable); plain users are offered no Remove.
    await login(page, DEMO_USERS.admin, { redirect: "/patients" });
    const family = `Listing${Date.now()}`;
    const first = await createPatient(page, `${family}A`, "Alma");
    await createPatient(page, `${family}B`, "Bert");
    await page.reload();
    const search = page.getByRole("combobox", { name: "Search patients" });
    await search.fill(family);
    await expect(page.getByRole("option")).toHaveCount(2);
    await search.press("Escape");
    await expect(page.getByRole("listbox")).toBeHidden();
    const rows = page.locator("table.data tbody tr");
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText(`${family}A`);
    await expectNoSeriousA11yViolations(page);

    const lastNameHeader = page.getByRole("columnheader", { name: /Last name/ });
    await expect(lastNameHeader).toHaveAttribute("aria-sort", "ascending");
    await lastNameHeader.getByRole("button").click();
    await expect(lastNameHeader).toHaveAttribute("aria-sort", "descending");
    await expect(rows.first()).toContainText(`${family}B`);
    await lastNameHeader.getByRole("button").click();
    await expect(rows.first()).toContainText(`${family}A`);

    const label = `${family}A, Alma (${first.mrn})`;
    await page.getByRole("button", { name: `Edit ${label}` }).click();
    const firstName = rows.first().getByLabel("First name");
    await expect(firstName).toHaveValue("Alma");
    await firstName.fill("");
    const alerts: string[] = [];
    page.once("dialog", (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole("button", { name: `Save ${label}` }).click();
    await expect.poll(() => alerts).toEqual(['Field "First name" is required.']);
    await expect(firstName).toBeVisible();
    await page.getByRole("button", { name: `Cancel editing ${label}` }).click();
    await expect(rows.first().getByLabel("First name")).toHaveCount(0);
    await expect(rows.first()).not.toHaveClass(/is-selected/);

    await page.getByRole("button", { name: `Edit ${label}` }).click();
    await rows.first().getByLabel("Phone").fill("5559876543");
    await rows.first().getByLabel("Phone").blur();
    await expect(rows.first().getByLabel("Phone")).toHaveValue("555-987-6543");
    await page.getByRole("button", { name: `Save ${label}` }).click();
    await expect(rows.first()).toContainText("555-987-6543");

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: `Download ${label}` }).click();
    expect((await download).suggestedFilename()).toBe(`patient-${first.mrn}.json`);

    await page.getByRole("button", { name: `Remove ${label}` }).click();
    const dialog = page.getByRole("dialog", { name: "Remove record" });
    await expect(dialog).toContainText("Are you sure you want to remove this record?");
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Yes" }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`${family}B`);
  });

  test("assigns a survey from the dropdown ordered with the Core Care Wellness Exam first", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/patients" });
    const patient = await createPatient(page, `Surveys${Date.now()}`);
    await page.goto(`/patients/${patient.id}`);
    const select = page.getByLabel("Survey to assign");
    await expect(select.locator("option").nth(1)).toHaveText("Core Care Wellness Exam");
    await expect(select.locator("option").nth(2)).toHaveText("Welcome to Medicare Exam");
    await select.selectOption({ label: "Welcome to Medicare Exam" });
    await page.getByRole("button", { name: "Assign survey" }).click();
    const table = page.getByRole("table", { name: /^Surveys of / });
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await expect(table).toContainText("Welcome to Medicare Exam");
    await expectNoSeriousA11yViolations(page);
    await table.getByRole("button", { name: "Remove Welcome to Medicare Exam" }).click();
    await page.getByRole("dialog", { name: "Remove record" }).getByRole("button", { name: "Yes" }).click();
    await expect(table).toContainText("No survey assigned.");
  });
});

import { randomBytes } from "node:crypto";
import {
  adminApi,
  DEMO_PASSWORD,
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  test,
} from "./fixtures";

/** Code names of fields that must never reach a person's eyes. */
const CODE_NAMES = /oldPassword|currentPassword|newPassword|confirmPassword|\bid:/;

test.describe("messages people understand", () => {
  test("the change-password form states every password rule and says a wrong current password beside its field", async ({
    page,
  }) => {
    await page.goto(`/auth/changepassword?email=${encodeURIComponent(DEMO_USERS.staff)}`);
    const rules = page.locator(".password-rules");
    for (const rule of [
      "has at least 15 characters",
      "is not a common password",
      "does not contain the name part of your e-mail address",
      "is not built on the name Core Care or your practice's name",
      "is typed the same way twice",
    ]) {
      await expect(rules).toContainText(rule);
    }
    await page.getByLabel("Current password").fill("certainly not the password");
    await page.getByLabel("New password", { exact: true }).fill("a perfectly long new passphrase");
    await page.getByLabel("Confirm new password").fill("a perfectly long new passphrase");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByLabel("Current password")).toHaveAccessibleDescription(
      "The current password or reset link is not valid.",
    );
    await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("alert").filter({ hasText: "marked below" })).toHaveText(
      "Please correct the field marked below.",
    );
    await expect(page.locator("body")).not.toContainText(CODE_NAMES);
    await expectNoSeriousA11yViolations(page);

    // Different confirmation: said beside the confirmation, before anything is sent.
    await page.getByLabel("Confirm new password").fill("a perfectly long new passphrasE");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByLabel("Confirm new password")).toHaveAccessibleDescription(
      "The new passwords do not match.",
    );
  });

  test("the account form says a wrong current password and a weak new one beside their fields", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/account" });
    const dialog = page.getByRole("dialog", { name: "Edit account" });
    await expect(dialog.locator(".password-rules")).toContainText("has at least 15 characters");
    await dialog.getByLabel("Current password").fill("certainly not the password");
    await dialog.getByRole("button", { name: "Save & Continue" }).click();
    await expect(dialog.getByLabel("Current password")).toHaveAccessibleDescription(
      "The current password is not correct.",
    );
    await dialog.getByLabel("Current password").fill(DEMO_PASSWORD);
    await dialog.getByLabel("New password", { exact: true }).fill("passwordpassword");
    await dialog.getByLabel("Confirm new password").fill("passwordpassword");
    await dialog.getByRole("button", { name: "Save & Continue" }).click();
    await expect(dialog.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(
      /^This password is too common\. Please choose another\./,
    );
    await expect(dialog).not.toContainText(CODE_NAMES);
    await expectNoSeriousA11yViolations(page);
  });

  test("the remove dialog names the record, and a removed patient says not found with a way back", async ({
    page,
  }) => {
    const lastName = `Removable${randomBytes(3).toString("hex")}`;
    await login(page, DEMO_USERS.admin, { redirect: "/patients" });
    const created = await page.request.post("/api/patients", {
      headers: { "X-Requested-With": "XMLHttpRequest" },
      data: { mrn: `RM-${lastName}`, firstName: "Remy", lastName, dob: "1940-01-01", sex: "M" },
    });
    const patient = (await created.json()) as { id: string };
    await page.reload();
    await page.getByRole("combobox", { name: "Search patients" }).fill(lastName);
    await page.getByRole("button", { name: new RegExp(`Remove ${lastName}, Remy`) }).click();
    const dialog = page.getByRole("dialog", { name: "Remove record" });
    await expect(dialog).toHaveAccessibleDescription(
      `Are you sure you want to remove this record? Patient ${lastName}, Remy (RM-${lastName})`,
    );
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Yes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Removed" })).toContainText(lastName);

    await page.goto(`/patients/${patient.id}`);
    await expect(page.getByRole("heading", { name: "Patient not found", level: 1 })).toBeVisible();
    await expect(
      page.getByText("does not exist or has been removed, or it belongs to another practice"),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("link", { name: "Back to patients" }).click();
    await expect(page).toHaveURL(/\/patients$/);
  });

  test("another practice's result says not found, like a missing one", async ({ page, baseURL }) => {
    const api = await adminApi(baseURL ?? "");
    const patients = (await (await api.get("/api/patients")).json()) as { items: { id: string }[] };
    const saved = await api.post("/api/surveyresults", {
      data: {
        clientRequestId: `other-${randomBytes(6).toString("hex")}`,
        surveyId: "64a1c0de0000000000000002",
        patientId: patients.items[0]?.id,
        isSubmitted: false,
        answers: {},
      },
    });
    const { id } = (await saved.json()) as { id: string };
    await api.dispose();
    // The multi-practice user, acting in the other practice.
    await login(page, DEMO_USERS.multi, { redirect: "/account" });
    await page.getByLabel("Tenant").selectOption("demo2");
    await page.waitForURL(/\/today$/);
    await page.goto(`/results/${id}`);
    await expect(page.getByRole("heading", { name: "Survey result not found", level: 1 })).toBeVisible();
    await page.getByRole("link", { name: "Back to survey results" }).click();
    await expect(page).toHaveURL(/\/results$/);
  });

  test("a failed list load shows the error with Retry, and Retry loads it", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/account" });
    let failing = true;
    await page.route("**/api/patients?*", async (route) => {
      if (failing) await route.abort("internetdisconnected");
      else await route.continue();
    });
    await page.goto("/patients");
    const table = page.getByRole("table", { name: "Patients" });
    await expect(table.locator(".load-error")).toHaveText(
      "The patients could not be loaded. Error: No network connectivityRetry",
    );
    await expect(table).not.toContainText("Loading...");
    await expectNoSeriousA11yViolations(page);
    failing = false;
    await table.getByRole("button", { name: "Retry" }).click();
    // The demo patient (other journeys add their own Walter Hobbs).
    await expect(table.getByRole("row").filter({ hasText: "D-1002" })).toBeVisible();
  });
});

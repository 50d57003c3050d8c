import type { Page } from "@playwright/test";
import { DEMO_USERS, expect, expectNoSeriousA11yViolations, login, test } from "./fixtures";

const XHR = { "X-Requested-With": "XMLHttpRequest" };

async function createPatient(page: Page, data: Record<string, string>) {
  const response = await page.request.post("/api/patients", {
    headers: XHR,
    data: { sex: "M", dob: "1960-01-01", ...data },
  });
  expect(response.status(), await response.text()).toBe(201);
}

const search = (page: Page) => page.getByRole("combobox", { name: "Search patients" });

test.describe("patients list: search and paging kept in the URL", () => {
  test("finds Walter Hobbs by 'Last, First' and by birth date, and a reload keeps the search", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/patients" });
    const mrn = `WH-${Date.now()}`;
    await createPatient(page, { firstName: "Walter", lastName: "Hobbs", mrn, dob: "1952-11-02" });
    await page.goto("/patients");
    await search(page).fill("Hobbs, Walter");
    await expect(page).toHaveURL(/[?&]q=Hobbs%2C\+Walter/);
    const row = page.getByRole("row").filter({ hasText: mrn });
    await expect(row).toBeVisible();
    await expect(row.getByRole("link", { name: "Hobbs", exact: true })).toBeVisible();

    await page.reload();
    await expect(search(page)).toHaveValue("Hobbs, Walter");
    await expect(page.getByRole("row").filter({ hasText: mrn })).toBeVisible();

    await search(page).fill("11/02/1952");
    await expect(page).toHaveURL(/[?&]q=11%2F02%2F1952/);
    await expect(page.getByRole("row").filter({ hasText: mrn })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: "1952-11-02" }).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test("page 2 opens at its top; reload and Back keep the page", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await login(page, DEMO_USERS.staff, { redirect: "/patients" });
    const tag = `Pager${Date.now().toString(36)}`;
    for (let i = 0; i < 205; i++) {
      await createPatient(page, {
        firstName: `P${String(i).padStart(3, "0")}`,
        lastName: tag,
        mrn: `${tag}-${i}`,
      });
    }
    await page.goto(`/patients?q=${tag}&sort=firstName`);
    await expect(page.getByText("Page 1 of 2 · 205 patients")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: "P000" })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).scrollIntoViewIfNeeded();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/[?&]page=2&?/);
    await expect(page.getByText("Page 2 of 2 · 205 patients")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: "P200" })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: "P000" })).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

    await page.reload();
    await expect(page.getByText("Page 2 of 2 · 205 patients")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: "P204" })).toBeVisible();

    await page.goBack();
    await expect(page.getByText("Page 1 of 2 · 205 patients")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: "P000" })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}`));
    await expect(page.getByRole("columnheader", { name: "First name" })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
  });
});

test.describe("results list", () => {
  test("shows each result's patient as 'Last, First' with MRN and birth date, linked to the patient", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/results?duration=0" });
    const rows = page.getByRole("row").filter({ has: page.getByRole("link", { name: /, / }) });
    await expect(rows.first()).toBeVisible();
    const link = rows.first().getByRole("link", { name: /, / });
    await page.getByRole("button", { name: "Patient" }).click();
    await expect(page).toHaveURL(/[?&]sort=patient&order=asc/);
    await expect(page.getByRole("columnheader", { name: "MRN" })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: "Date of birth" })).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/\/patients\/[0-9a-f]{24}$/);
  });
});

import { expect, test } from "@playwright/test";

test("the app renders in Chromium", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading")).toHaveText("Core Care 555-1234");
});

import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./fixtures";

test.describe("the app", () => {
  test("serves the sign-in screen in Chromium", async ({ page }) => {
    await page.goto("/auth/login");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

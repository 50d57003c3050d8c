import { DEMO_PASSWORD, DEMO_USERS, expect, login, test } from "./fixtures";

const SCREENS = [
  ["/patients", "Patients"],
  ["/patients/new", "New patient"],
  ["/results", "Survey results"],
  ["/reports", "Reports"],
  ["/users", "Users"],
  ["/locations", "Locations"],
  ["/interfaces", "Interfaces"],
  ["/tenants", "Tenants"],
] as const;

for (const viewport of [
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
]) {
  test(`every portal screen fits ${viewport.width}x${viewport.height} without sideways scrolling`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await login(page, DEMO_USERS.sysadmin, { redirect: "/reports" });
    for (const [path, heading] of SCREENS) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
}

test("signing in and using a modal work with the keyboard alone", async ({ page }) => {
  await page.goto("/auth/login?redirect=%2Faccount");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByLabel("E-mail").focus();
  await page.keyboard.type(DEMO_USERS.staff);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password")).toBeFocused();
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/account$/);

  const dialog = page.getByRole("dialog", { name: "Edit account" });
  await expect(dialog.getByLabel("First name")).toBeFocused();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeAttached();
});

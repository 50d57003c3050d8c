import { DEMO_PASSWORD, DEMO_USERS, expect, expectNoSeriousA11yViolations, login, test } from "./fixtures";

const SCREENS = [
  ["/today", "Today"],
  ["/patients", "Patients"],
  ["/patients/new", "New patient"],
  ["/results", "Survey results"],
  ["/reports", "Reports"],
  ["/users", "Users"],
  ["/locations", "Locations"],
  ["/interfaces", "Interfaces"],
  ["/tenants", "Tenants"],
  ["/audit", "Audit log"],
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

test("the header keeps each link on one line at 1024, 1280 and 1440 px, its menu by keyboard", async ({
  page,
}) => {
  await login(page, DEMO_USERS.sysadmin);
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const width of [1024, 1280, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(page.getByRole("heading", { name: "Today", level: 1 })).toBeVisible();
    const layout = await page.evaluate(() => {
      const items = [...document.querySelectorAll(".topnav > ul > li")].map((li) =>
        li.getBoundingClientRect(),
      );
      const header = document.querySelector(".topbar")?.getBoundingClientRect();
      const lineHeight = (el: Element | null) => (el ? el.getBoundingClientRect().height : 0);
      return {
        rows: new Set(items.map((r) => Math.round(r.top))).size,
        tallestItem: Math.max(...items.map((r) => r.height)),
        logo: lineHeight(document.querySelector(".logo")),
        signOut: lineHeight(document.querySelector(".topbar-end a.button")),
        header: header?.height ?? 0,
      };
    });
    // The links share one row and none breaks inside; the header takes one row, or two tidy ones.
    expect(layout.rows, `${width}`).toBe(1);
    expect(layout.tallestItem, `${width}`).toBeLessThan(48);
    expect(layout.logo, `${width}`).toBeLessThan(40);
    expect(layout.signOut, `${width}`).toBeLessThan(48);
    expect(layout.header, `${width}`).toBeLessThan(width >= 1400 ? 64 : 110);
  }

  await nav.getByRole("button", { name: "Administration" }).focus();
  await page.keyboard.press("Enter");
  await expect(nav.getByRole("button", { name: "Administration" })).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "Audit log" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press("Escape");
  await expect(nav.getByRole("link", { name: "Audit log" })).toBeHidden();
  await expect(nav.getByRole("button", { name: "Administration" })).toBeFocused();
});

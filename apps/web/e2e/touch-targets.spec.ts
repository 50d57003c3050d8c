import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { DEMO_USERS, expect, login, test } from "./fixtures";

/** The staff screens, each with its heading (as e2e/layout.spec.ts walks them), plus the account page. */
const SCREENS = [
  ["/today", "Today"],
  ["/patients", "Patients"],
  ["/patients/new", "New patient"],
  ["/results", "Survey results"],
  ["/surveys", "Surveys"],
  ["/reports", "Reports"],
  ["/users", "Users"],
  ["/locations", "Locations"],
  ["/interfaces", "Interfaces"],
  ["/tenants", "Tenants"],
  ["/audit", "Audit log"],
  ["/account", "Account"],
] as const;

/** The smallest size a touch target may have (WCAG 2.5.5, Apple's and the tablet's 44 px). */
const MIN = 44;

/**
 * Every visible control of the page that measures under 44 px in height or width: links, buttons,
 * fields, selects, summaries; a checkbox or radio is measured by its label, which is what a finger hits.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"], [role="link"]',
    );
    const small: string[] = [];
    for (const control of controls) {
      const style = getComputedStyle(control);
      if (style.visibility === "hidden" || control.closest("[hidden], [inert], .visually-hidden")) continue;
      let target: HTMLElement = control;
      if (control instanceof HTMLInputElement && (control.type === "checkbox" || control.type === "radio")) {
        target = control.closest("label") ?? control.labels?.[0] ?? control;
      }
      const box = target.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.height < min || box.width < min) {
        const name =
          control.getAttribute("aria-label") ??
          (control.textContent?.trim() || control.getAttribute("name") || control.id || "").slice(0, 40);
        small.push(
          `${control.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`,
        );
      }
    }
    return small;
  }, MIN);
}

test.describe("on a 1024x768 touch screen", () => {
  test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true });

  test("the sign-in page's controls measure at least 44 px", async ({ page }) => {
    await page.goto("/auth/login");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    expect(await smallTargets(page)).toEqual([]);
  });

  test("every staff screen's controls measure at least 44 px, and still fit the width", async ({ page }) => {
    await login(page, DEMO_USERS.sysadmin, { redirect: "/today" });
    // A patient whose name and MRN are long, first in the list's order: its row's larger controls must
    // still fit the width (other tests' patients made the list overflow before a row's actions wrapped).
    const tag = randomBytes(4).toString("hex");
    const created = await page.request.post("/api/patients", {
      headers: { "X-Requested-With": "XMLHttpRequest" },
      data: {
        mrn: `TOUCH-${tag}-000000000001`,
        firstName: "Maximiliana-Evangelina",
        lastName: `Aaberg-Worthington-Montgomery${tag}`,
        dob: "1950-01-01",
        sex: "F",
      },
    });
    expect(created.status()).toBe(201);
    const found: string[] = [];
    for (const [path, heading] of SCREENS) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
      // Lists and the day's work load after the heading.
      await page.waitForLoadState("networkidle");
      found.push(...(await smallTargets(page)).map((target) => `${path}: ${target}`));
      // The larger targets still fit the screen's width.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    expect(found).toEqual([]);
  });
});

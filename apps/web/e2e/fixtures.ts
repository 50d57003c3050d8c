import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, test as base, type Page } from "@playwright/test";

/** The demo users the API seeds on a fresh database. */
export const DEMO_USERS = {
  staff: "staff@demo.test",
  admin: "admin@demo.test",
  sysadmin: "sysadmin@demo.test",
  multi: "multi@demo.test",
} as const;

/** The demo users' password. */
export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? "core-care-demo-password";

/** A user agent of an iPad, for the tablet redirect. */
export const IPAD_USER_AGENT =
  "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Signs in through the login form as `email` and waits until the app has left the sign-in screen.
 * `redirect` lands on that path instead of the default.
 */
export async function login(
  page: Page,
  email: string,
  options: { password?: string; redirect?: string } = {},
) {
  const query = options.redirect ? `?redirect=${encodeURIComponent(options.redirect)}` : "";
  await page.goto(`/auth/login${query}`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(options.password ?? DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/auth"));
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Runs axe-core on the page and fails on any serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page) {
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target),
    }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}

/** Playwright's test with the shared helpers. */
export const test = base;
export { expect };

import { expect, login, DEMO_USERS, startServer, test, type ExtraServer } from "./fixtures";

const IDLE_SECONDS = 8;
let server: ExtraServer;

test.describe("idle timeout", () => {
  test.describe.configure({ timeout: 240_000 });

  test.beforeAll(async () => {
    server = await startServer({ IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS) });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("activity keeps the session, inactivity signs out with the timeout message", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { baseURL: server.baseURL, redirect: "/reports" });
    await expect(page.getByRole("heading", { name: "Reports" })).toBeVisible();
    for (let i = 0; i < 4; i++) {
      await page.waitForTimeout((IDLE_SECONDS * 1000) / 2);
      await page.keyboard.press("Shift");
    }
    await expect(page).toHaveURL(/\/reports$/);
    await page.waitForURL(/\/auth\/login/, { timeout: (IDLE_SECONDS + 10) * 1000 });
    await expect(page.getByText("Your session has timed out due to inactivity.")).toBeVisible();
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/reports");
  });
});

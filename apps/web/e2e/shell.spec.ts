import type { Route } from "@playwright/test";
import {
  DEMO_PASSWORD,
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  test,
  withTenantList,
} from "./fixtures";

test.describe("HTTP client behaviours", () => {
  test("a 401 records the location, goes to logout and login, and returns there after signing in", async ({
    page,
    context,
  }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/reports" });
    // The page's own first calls must have been answered, or one of them would meet the 401 first.
    await expect(page.getByRole("link", { name: "Survey results" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await context.clearCookies();
    await page.getByRole("link", { name: "Survey results" }).click();
    await page.waitForURL(/\/auth\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/results");
    await page.getByLabel("E-mail").fill(DEMO_USERS.staff);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/results$/);
    await expect(page.getByRole("heading", { name: "Survey results" })).toBeVisible();
  });

  test("shows the server's message in the error banner for 10 seconds", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/reports" });
    await page.route("**/api/surveyresults?*", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({
          responseStatus: { status: 500, message: "The results store is unavailable." },
        }),
      }),
    );
    await page.getByRole("link", { name: "Survey results" }).click();
    const banner = page.getByTestId("error-banner");
    await expect(banner).toHaveText(/The results store is unavailable\./);
    await expect(
      page.getByRole("alert").filter({ hasText: "The results store is unavailable." }),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.waitForTimeout(8_000);
    await expect(banner).toBeVisible();
    await expect(banner).toBeHidden({ timeout: 5_000 });
  });

  test("shows the HTTP status text when the server sends no message", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/reports" });
    await page.route("**/api/surveyresults?*", (route) => route.fulfill({ status: 503, body: "" }));
    await page.getByRole("link", { name: "Survey results" }).click();
    await expect(page.getByTestId("error-banner")).toHaveText(/Service Unavailable/);
  });

  test("shows 'Processing...' while a request runs and hides it when all finish", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/reports" });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/surveyresults?*", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("link", { name: "Survey results" }).click();
    const indicator = page.getByRole("status").filter({ hasText: "Processing..." });
    await expect(indicator).toBeVisible();
    release();
    await expect(indicator).toBeHidden();
    await expect(page.locator(".processing")).not.toHaveClass(/is-visible/);
  });
});

test.describe("keepalive", () => {
  test("activity schedules a keepalive at most once per 300 seconds; failures other than 401 are only logged", async ({
    page,
  }) => {
    await page.clock.install();
    await login(page, DEMO_USERS.staff, { redirect: "/reports" });
    await expect(page.getByRole("heading", { name: "Reports" })).toBeVisible();
    const pings: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/auth/keepalive")) pings.push(request.method());
    });
    const warnings: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "warning") warnings.push(message.text());
    });

    await page.keyboard.press("Shift");
    await page.mouse.down();
    await page.mouse.up();
    await page.clock.runFor(290_000);
    expect(pings).toEqual([]);
    await page.clock.runFor(11_000);
    await expect.poll(() => pings).toEqual(["GET"]);

    await page.keyboard.press("Shift");
    await page.clock.runFor(9_000);
    expect(pings).toHaveLength(1);

    await page.route("**/api/auth/keepalive", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ responseStatus: { status: 500, message: "Keepalive store down." } }),
      }),
    );
    await page.clock.runFor(300_000);
    await expect.poll(() => warnings.some((w) => w.startsWith("keepalive failed"))).toBe(true);
    await expect(page.getByTestId("error-banner")).toHaveCount(0);
    await expect(page).toHaveURL(/\/reports$/);

    await page.route("**/api/auth/keepalive", (route) =>
      route.fulfill({
        status: 401,
        contentType: "application/json",
        body: JSON.stringify({ responseStatus: { status: 401, message: "Your session has expired." } }),
      }),
    );
    await page.keyboard.press("Shift");
    await page.clock.runFor(300_000);
    await page.waitForURL(/\/auth\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/reports");
  });
});

test.describe("routes", () => {
  test("'/' goes to the configured default and a trailing slash is removed", async ({ page }) => {
    await login(page, DEMO_USERS.staff);
    await expect(page).toHaveURL(/\/today$/);
    await page.goto("/results/?duration=5");
    await expect(page).toHaveURL(/\/results\?duration=5$/);
  });

  test("an unknown path is loaded in full, and says not found when the server answers with the app", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/reports" });
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 1;
      history.pushState({}, "", "/no-such-screen");
      dispatchEvent(new PopStateEvent("popstate"));
    });
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    expect(await page.evaluate(() => "marker" in window)).toBe(false);
    await expectNoSeriousA11yViolations(page);
  });
});

/** A promise and the function that resolves it. */
function signal() {
  let done = () => undefined as void;
  const promise = new Promise<void>((resolve) => (done = resolve));
  return { promise, done };
}

test.describe("tenants", () => {
  test("a multi-tenant user switches tenant", async ({ page }) => {
    await login(page, DEMO_USERS.multi, { redirect: "/reports" });
    const picker = page.getByLabel("Tenant");
    await expect(picker).toHaveValue("demo");
    await expect(picker.locator("option")).toHaveText(["Demo Family Practice", "Demo Internal Medicine"]);
    await picker.selectOption("demo2");
    await page.waitForURL(/\/today$/);
    await expect(page.getByLabel("Tenant")).toHaveValue("demo2");
    const me = (await (await page.request.get("/api/users/me")).json()) as { tenant: { id: string } };
    expect(me.tenant.id).toBe("demo2");
    await expectNoSeriousA11yViolations(page);
  });

  test("answers of the old session that arrive after the switch do not undo it", async ({ page }) => {
    await login(page, DEMO_USERS.multi, { redirect: "/reports" });
    const picker = page.getByLabel("Tenant");
    await expect(picker).toHaveValue("demo");
    await page.waitForLoadState("networkidle");
    // The server writes a session's last use back at most every 5 seconds: the next request writes it.
    await page.waitForTimeout(5_500);
    // Two requests of the page under the old session, one answered by the server before the switch and
    // one after it (401). Both answers reach the browser only once the switch's has, and the new page
    // waits until they have.
    const fetchedBefore = signal();
    const switchedOnServer = signal();
    const switched = signal();
    const beforeIn = signal();
    const afterIn = signal();
    const oldAnswers: { status: number; cookie: string | undefined }[] = [];
    const holdOldAnswer =
      (sendAfter: Promise<void>, fetched: () => void, arrived: () => void) => async (route: Route) => {
        await sendAfter;
        const response = await route.fetch();
        fetched();
        await switched.promise;
        oldAnswers.push({ status: response.status(), cookie: response.headers()["set-cookie"] });
        await route.fulfill({ response });
        arrived();
      };
    await page.route(
      "**/api/tenants/getMultiUserTenants",
      holdOldAnswer(Promise.resolve(), fetchedBefore.done, beforeIn.done),
      { times: 1 },
    );
    await page.route(
      "**/api/tenants/demo/reports",
      holdOldAnswer(switchedOnServer.promise, () => undefined, afterIn.done),
      { times: 1 },
    );
    await page.route("**/api/users/me/tenant", async (route) => {
      const response = await route.fetch();
      switchedOnServer.done();
      await route.fulfill({ response });
      switched.done();
    });
    await page.route(
      (url) => url.pathname === "/",
      async (route) => {
        await Promise.all([beforeIn.promise, afterIn.promise]);
        await route.continue();
      },
    );
    await page.evaluate(() => {
      void fetch("/api/tenants/getMultiUserTenants", { headers: { "x-requested-with": "XMLHttpRequest" } });
    });
    await fetchedBefore.promise;
    await page.evaluate(() => {
      void fetch("/api/tenants/demo/reports", { headers: { "x-requested-with": "XMLHttpRequest" } });
    });
    await picker.selectOption("demo2");
    await page.waitForURL(/\/today$/);
    await expect(page.getByLabel("Tenant")).toHaveValue("demo2");
    expect(oldAnswers).toEqual([
      { status: 200, cookie: undefined },
      { status: 401, cookie: undefined },
    ]);
  });

  test("a request of the old practice refused after the switch does not sign the user out", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.multi, { redirect: "/account" });
    // The account page opens with its Edit account modal, which holds the navigation until it is closed.
    const dialog = page.getByRole("dialog", { name: "Edit account" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    const oldSid = (await page.context().cookies()).find((cookie) => cookie.name === "sid")?.value;
    expect(oldSid).toBeDefined();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    // The reports list is held until the server has switched the session, then sent with the session it
    // was asked under, which the switch ended: the server refuses it while the switch's answer is on its way.
    let releaseList = () => undefined as void;
    const listReleased = new Promise<void>((resolve) => (releaseList = resolve));
    const refusals: number[] = [];
    await page.route("**/api/tenants/demo/reports", async (route) => {
      await listReleased;
      const response = await route.fetch({
        headers: { ...route.request().headers(), cookie: `sid=${oldSid}` },
      });
      refusals.push(response.status());
      await route.fulfill({ response });
    });
    let switchedOnServer = () => undefined as void;
    const serverSwitched = new Promise<void>((resolve) => (switchedOnServer = resolve));
    let releaseSwitch = () => undefined as void;
    const switchReleased = new Promise<void>((resolve) => (releaseSwitch = resolve));
    await page.route("**/api/users/me/tenant", async (route) => {
      const response = await route.fetch();
      switchedOnServer();
      await switchReleased;
      await route.fulfill({ response });
    });

    const listAsked = page.waitForRequest("**/api/tenants/demo/reports");
    await page.getByRole("link", { name: "Reports", exact: true }).click();
    await listAsked;
    await page.getByLabel("Tenant").selectOption("demo2");
    await serverSwitched;
    releaseList();
    const table = page.getByRole("table", { name: "Reports" });
    await expect(table.locator(".load-error")).toBeVisible();
    expect(refusals).toEqual([401]);
    await expect(page).toHaveURL(/\/reports$/);
    releaseSwitch();
    await page.waitForURL(/\/today$/);
    await expect(page.getByLabel("Tenant")).toHaveValue("demo2");
    expect(requested.filter((path) => path.startsWith("/auth/"))).toEqual([]);
  });

  test("a multi-tenant user whose tenant list lacks the current tenant is sent to logout, not on the login page", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.multi, { redirect: "/reports" });
    await page.route("**/results", withTenantList(["demo2"]));
    await page.goto("/results");
    await page.waitForURL(/\/auth\/login/);
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  });
});

test.describe("account", () => {
  test("the user-name link opens the account page with the edit-account modal", async ({ page }) => {
    await login(page, DEMO_USERS.admin, { redirect: "/reports" });
    await page.getByRole("link", { name: /^Account of / }).click();
    await expect(page).toHaveURL(/\/account$/);
    const dialog = page.getByRole("dialog", { name: "Edit account" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("E-mail")).toHaveAttribute("readonly", "");
    await expect(dialog.getByLabel("E-mail")).toHaveValue(DEMO_USERS.admin);
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Save & Continue" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await dialog.getByLabel("First name").fill("");
    await dialog.getByRole("button", { name: "Save & Continue" }).click();
    await expect(dialog).toBeVisible();
    expect(
      await dialog.getByLabel("First name").evaluate((el: HTMLInputElement) => el.validity.valueMissing),
    ).toBe(true);

    await dialog.getByLabel("First name").fill("Adela");
    await dialog.getByLabel("Current password").fill(DEMO_PASSWORD);
    await dialog.getByRole("button", { name: "Save & Continue" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("link", { name: /^Account of Adela / })).toBeVisible();
    await page.getByRole("button", { name: "Edit account" }).click();
    await expect(dialog.getByLabel("Current password")).toHaveValue("");
    await expect(dialog.getByLabel("First name")).toHaveValue("Adela");
  });

  test("modals close on the close button, a backdrop click, Escape and the close event", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/account" });
    const dialog = page.getByRole("dialog", { name: "Edit account" });
    const reopen = () => page.getByRole("button", { name: "Edit account" }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await reopen();
    await page.getByTestId("modal-backdrop").click({ position: { x: 5, y: 5 } });
    await expect(dialog).toBeHidden();
    await reopen();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await reopen();
    await page.evaluate(() => window.dispatchEvent(new Event("core-care:modal-close")));
    await expect(dialog).toBeHidden();
    await reopen();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
  });
});

import { Secret, TOTP } from "otpauth";
import {
  DEMO_PASSWORD,
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  IPAD_USER_AGENT,
  login,
  test,
} from "./fixtures";

test.describe("/auth/login", () => {
  test("shows the form, the message parameter and links to forgot password and /auth", async ({ page }) => {
    await page.goto("/auth/login?message=Please%20sign%20in%20again.");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(page.getByText("Please sign in again.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Forgot password?" })).toHaveAttribute(
      "href",
      "/auth/forgotpassword",
    );
    await expect(page.getByRole("link", { name: "Core Care sign in" })).toHaveAttribute("href", "/auth");
    await expectNoSeriousA11yViolations(page);
  });

  test("shows the login form on any other /auth path", async ({ page }) => {
    await page.goto("/auth/no-such-screen");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  });

  test("says there is no internet connectivity when the browser is offline", async ({ page, context }) => {
    await page.goto("/auth/login");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await context.setOffline(true);
    const alerts = page.locator(".form-error:not(:empty), .error-banner");
    await expect(page.getByText("Error: No internet connectivity!")).toBeVisible();
    await page.getByLabel("E-mail").fill(DEMO_USERS.staff);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Exactly one error, however often the user presses Sign in while offline.
    await expect(alerts).toHaveText(["Error: No internet connectivity!"]);
    await context.setOffline(false);
    await expect(page.getByText("Error: No internet connectivity!")).toBeHidden();
    await expect(alerts).toHaveCount(0);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/auth"));
  });

  test("a failure that was only the network's clears once the browser is back online", async ({
    page,
    context,
  }) => {
    await page.goto("/auth/login");
    // The server out of reach while the browser believes it is online.
    await page.route("**/api/auth/sessions", (route) => route.abort("internetdisconnected"));
    await page.getByLabel("E-mail").fill(DEMO_USERS.staff);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    const formError = page.locator(".auth-form .form-error");
    await expect(formError).toHaveText("Error: No network connectivity");
    await context.setOffline(true);
    await expect(formError).toHaveText("Error: No internet connectivity!");
    await context.setOffline(false);
    await expect(formError).toBeEmpty();
  });

  test("shows the server's message in the form when the password is wrong", async ({ page }) => {
    await page.goto("/auth/login");
    await page.getByLabel("E-mail").fill(DEMO_USERS.staff);
    await page.getByLabel("Password").fill("not the right password at all");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Invalid email or password.")).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login$/);
  });

  test("reads 'Processing...' while signing in, stores the elevated flag and goes to '/'", async ({
    page,
  }) => {
    await page.goto("/auth/login");
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/auth/sessions", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel("E-mail").fill(DEMO_USERS.staff);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("button", { name: "Processing..." })).toBeDisabled();
    await expect(page.getByRole("status").filter({ hasText: "Processing..." })).toBeVisible();
    release();
    await page.waitForURL("**/today");
    expect(await page.evaluate(() => localStorage.getItem("elevated"))).toBe("true");
  });

  test("goes to the URL-decoded redirect parameter after signing in", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/results?duration=5" });
    await expect(page).toHaveURL(/\/results\?duration=5$/);
    await expect(page.getByRole("heading", { name: "Survey results" })).toBeVisible();
  });
});

test.describe("tablet redirect", () => {
  test.use({ userAgent: IPAD_USER_AGENT, viewport: { width: 1024, height: 768 }, hasTouch: true });

  // Each waits for the tablet's page itself, not only its address: a test ending while that page still
  // loads left Chromium closing the context mid-navigation, which hung its teardown 1 run in 15.
  test("sends an iPad to /tablet after signing in without a redirect", async ({ page }) => {
    await login(page, DEMO_USERS.staff);
    await expect(page).toHaveURL(/\/tablet$/);
    await expect(page.getByRole("heading", { name: "Start a survey on this tablet" })).toBeVisible();
  });

  test("sends an iPad opening / to /tablet", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/patients" });
    await page.goto("/");
    await expect(page).toHaveURL(/\/tablet$/);
    await expect(page.getByRole("heading", { name: "Start a survey on this tablet" })).toBeVisible();
  });
});

test.describe("/auth/forgotpassword", () => {
  test("asks for the e-mail with 'Reset my password' and goes 'Back to login'", async ({ page }) => {
    await page.goto("/auth/forgotpassword");
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel("E-mail").fill("nobody@demo.test");
    await page.getByRole("button", { name: "Reset my password" }).click();
    await expect(page.getByText(/a link to choose a new password has been sent/)).toBeVisible();
    await page.getByRole("link", { name: "Back to login" }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
  });
});

test.describe("/auth/changepassword", () => {
  test("is prefilled from email and pwd and shows the server's refusal of a bad token", async ({ page }) => {
    await page.goto("/auth/changepassword?email=staff%40demo.test&pwd=not-a-real-token");
    await expect(page.getByLabel("Current password")).toHaveValue("not-a-real-token");
    await expect(page.locator('input[type="hidden"][name="email"]')).toHaveValue("staff@demo.test");
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel("New password", { exact: true }).fill("a brand new long passphrase");
    await page.getByLabel("Confirm new password").fill("a brand new long passphrase");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.locator(".form-error")).not.toBeEmpty();
    await expect(page).toHaveURL(/\/auth\/changepassword/);
  });
});

test.describe("/auth/logout", () => {
  test("ends the session and goes to /auth/login keeping the query string", async ({ page }) => {
    await login(page, DEMO_USERS.staff);
    await page.goto("/auth/logout?message=Goodbye");
    await expect(page).toHaveURL(/\/auth\/login\?message=Goodbye$/);
    await expect(page.getByText("Goodbye")).toBeVisible();
    const me = await page.request.get("/api/users/me");
    expect(me.status()).toBe(401);
  });
});

test.describe("/auth/test", () => {
  test("creates and deletes a test user with roles defaulting to 'User'", async ({ page }) => {
    await page.goto("/auth/test");
    await expect(page.getByRole("heading", { name: "Login test" })).toBeVisible();
    const loginForm = page.locator("form").filter({ has: page.getByLabel("Password") });
    await loginForm.getByLabel("E-mail").fill(DEMO_USERS.admin);
    await loginForm.getByLabel("Password").fill(DEMO_PASSWORD);
    await loginForm.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(`Signed in as ${DEMO_USERS.admin}`)).toBeVisible();
    const form = page.locator("form").filter({ has: page.getByLabel("Roles") });
    await expect(form.getByLabel("Roles")).toHaveValue("User");
    await expectNoSeriousA11yViolations(page);
    await form.getByLabel("Name").fill("Tess Tester");
    await form.getByLabel("E-mail").fill("tess.tester@demo.test");
    await form.getByRole("button", { name: "Create user" }).click();
    await expect(page.getByText("Created user tess.tester@demo.test.")).toBeVisible();
    await form.getByRole("button", { name: "Delete user" }).click();
    await expect(page.getByText("Deleted user tess.tester@demo.test.")).toBeVisible();
  });

  test("signs in through the login test form without leaving the page", async ({ page }) => {
    await page.goto("/auth/test");
    const form = page.locator("form").filter({ has: page.getByLabel("Password") });
    await form.getByLabel("E-mail").fill(DEMO_USERS.admin);
    await form.getByLabel("Password").fill(DEMO_PASSWORD);
    await form.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(`Signed in as ${DEMO_USERS.admin}`)).toBeVisible();
  });
});

test.describe("second factor (TOTP)", () => {
  test("an admin turns it on from the account page, then signs in with a code", async ({ page }) => {
    // A new admin of the demo practice, so the seeded admin other journeys use keeps signing in without one.
    await login(page, DEMO_USERS.admin);
    const email = `totp-${Date.now()}@demo.test`;
    const password = "amber kestrel harbour lantern 42";
    const created = await page.request.post("/api/users", {
      headers: { "x-requested-with": "XMLHttpRequest" },
      data: { firstName: "Tia", lastName: "Otp", email, roles: 2, password },
    });
    expect(created.status()).toBe(201);
    await page.goto("/auth/logout");
    await page.waitForURL("**/auth/login**");

    await login(page, email, { password, redirect: "/account" });
    await page.getByRole("dialog", { name: "Edit account" }).getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Turn on second factor" }).click();
    await expect(page.getByRole("img", { name: "QR code of the authenticator link" })).toBeVisible();
    await expect(page.getByLabel("Authenticator link")).toHaveValue(/^otpauth:\/\/totp\//);
    const secret = Secret.fromBase32(await page.getByLabel("Key").inputValue());
    await page.getByLabel("Code from the app").fill(TOTP.generate({ secret }));
    await page.getByRole("button", { name: "Turn on" }).click();
    await expect(page.getByRole("heading", { name: "Recovery codes" })).toBeFocused();
    await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByText("Signing in asks for a code from your authenticator app")).toBeVisible();

    await page.goto("/auth/logout");
    await page.waitForURL("**/auth/login**");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    const code = page.getByLabel("Authentication code");
    await expect(code).toBeFocused();
    await expect(code).toHaveAttribute("inputmode", "numeric");
    await expect(code).toHaveAttribute("autocomplete", "one-time-code");
    await expectNoSeriousA11yViolations(page);
    const near = [-1, 0, 1].map((step) => TOTP.generate({ secret, timestamp: Date.now() + step * 30_000 }));
    await code.fill(["000000", "111111", "222222", "333333"].find((c) => !near.includes(c)) ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The code is not valid." })).toBeVisible();
    // The step the set-up used is spent; the app's next code is accepted within the clock window.
    await code.fill(TOTP.generate({ secret, timestamp: Date.now() + 30_000 }));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/auth"));
    await expect(page.getByRole("heading", { name: "Today", level: 1 })).toBeVisible();
  });
});

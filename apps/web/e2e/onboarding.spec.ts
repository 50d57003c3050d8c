import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_USERS, expect, expectNoSeriousA11yViolations, login, test } from "./fixtures";

/** The server runs without SMTP in the e2e suite, so its mail lands in DATA_DIR/outbox as .eml files. */
function invitationLink(to: string): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set; playwright.config.ts sets it for the server");
  const dir = join(dataDir, "outbox");
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .sort()
    .reverse();
  for (const name of files) {
    const raw = readFileSync(join(dir, name), "utf8");
    if (!raw.includes(`To: ${to}`)) continue;
    // Quoted-printable soft line breaks and the encoded "=" (RFC 2045 6.7).
    const body = raw.replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
    const link = /https?:\/\/\S+\/invitation#token=[A-Za-z0-9_-]+/.exec(body)?.[0];
    if (link) return link;
  }
  throw new Error(`no invitation to ${to} in the outbox`);
}

test.describe("onboarding a practice", () => {
  test("a system admin creates a practice, switches into it and adds its first admin, who sets a password and signs in", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const practiceId = `onboard-${stamp}`;
    const practice = `Onboarded Clinic ${stamp}`;
    const email = `first.admin.${stamp}@onboard.test`;

    await login(page, DEMO_USERS.sysadmin);
    await expect(page.getByRole("heading", { name: "Today", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Administration" }).click();
    await page.getByRole("link", { name: "Tenants" }).click();
    await page.getByRole("button", { name: "New tenant" }).click();
    const dialog = page.getByRole("dialog", { name: "New tenant" });
    // A malformed id is said beside its field, in words.
    await dialog.getByLabel("Id").fill("Onboard Clinic");
    await dialog.getByLabel("Name").fill(practice);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByLabel("Id")).toHaveAccessibleDescription(
      /Must be lowercase letters, digits and hyphens\./,
    );
    await expect(dialog.getByRole("alert")).toHaveText("Please correct the field marked below.");
    await expect(dialog).not.toContainText("id:");
    await dialog.getByLabel("Id").fill(practiceId);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();

    // The header's practice switcher offers the new practice at once; "Switch to" on its row goes in.
    await page.getByLabel("Tenant").focus();
    await expect(page.getByLabel("Tenant").locator(`option[value="${practiceId}"]`)).toHaveText(practice);
    await page.getByRole("button", { name: `Switch to ${practice}` }).click();
    await page.waitForURL(/\/users$/);
    await expect(page.getByLabel("Tenant")).toHaveValue(practiceId);
    await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
    await expect(page.locator("table.data")).toContainText("No users yet.");
    await page.getByRole("button", { name: "New user" }).click();
    const newUser = page.getByRole("dialog", { name: "New user" });
    await expect(newUser).toContainText("has at least 15 characters");
    await newUser.getByLabel("First name").fill("Fiona");
    await newUser.getByLabel("Last name").fill("First");
    await newUser.getByLabel("E-mail").fill(email);
    await newUser.getByLabel("Admin", { exact: true }).check();
    await expectNoSeriousA11yViolations(page);
    await newUser.getByRole("button", { name: "Save" }).click();
    await expect(page.locator(".notice.success")).toHaveText(
      `User saved. ${email} was e-mailed a link to choose a password.`,
    );
    await expect(page.locator("table.data tbody tr").filter({ hasText: email })).toContainText("Admin");

    // The switch is on the audit trail of both practices.
    const trail = (await (await page.request.get("/api/audit?action=switch-tenant")).json()) as {
      items: { details: { to?: string; asSysAdmin?: boolean } }[];
    };
    expect(trail.items[0]?.details).toMatchObject({ to: practiceId, asSysAdmin: true });

    // The new admin, in a browser of their own, opens the e-mailed link and chooses a password.
    const context = await browser.newContext();
    const admin = await context.newPage();
    await admin.goto(invitationLink(email));
    await expect(admin.getByRole("heading", { name: "Choose your password" })).toBeVisible();
    await expect(admin.getByText(email)).toBeVisible();
    await expectNoSeriousA11yViolations(admin);
    await admin.getByLabel("New password", { exact: true }).fill("onboarded clinic rocks");
    await admin.getByLabel("Confirm new password").fill("onboarded clinic rocks");
    await admin.getByRole("button", { name: "Set my password" }).click();
    // Built on the practice's name: said beside the field, with every rule in view.
    await expect(admin.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(
      /^The password must not be built on the name of Core Care or of your practice\. A new password: has at least 15 characters/,
    );
    await expect(admin.locator(".form-error")).toHaveText("Please correct the field marked below.");
    const password = "lantern harbour quietly 2047";
    await admin.getByLabel("New password", { exact: true }).fill(password);
    await admin.getByLabel("Confirm new password").fill(password);
    await admin.getByRole("button", { name: "Set my password" }).click();
    await expect(admin.getByRole("heading", { name: "Your password is set" })).toBeVisible();
    await expectNoSeriousA11yViolations(admin);
    await admin.getByRole("link", { name: "Sign in", exact: true }).click();
    await expect(admin.getByText("Your password is set. Please sign in.")).toBeVisible();

    await admin.getByLabel("E-mail").fill(email);
    await admin.getByLabel("Password").fill(password);
    await admin.getByRole("button", { name: "Sign in" }).click();
    await admin.waitForURL(/\/today$/);
    await expect(admin.locator(".tenant-name")).toHaveText(practice);
    await expect(admin.getByRole("button", { name: "Administration" })).toBeVisible();
    await context.close();
  });
});

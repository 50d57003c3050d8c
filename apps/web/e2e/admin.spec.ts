import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  DEMO_PASSWORD,
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  startServer,
  test,
  type ExtraServer,
} from "./fixtures";

const XHR = { "X-Requested-With": "XMLHttpRequest" };

test.describe("users", () => {
  test("an admin creates, edits and removes a user", async ({ page }) => {
    await login(page, DEMO_USERS.admin, { redirect: "/reports" });
    await page.getByRole("button", { name: "Administration" }).click();
    await page.getByRole("link", { name: "Users" }).click();
    await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
    await expect(page.locator("table.data")).toContainText(DEMO_USERS.staff);
    await expectNoSeriousA11yViolations(page);

    const email = `nurse.${Date.now()}@demo.test`;
    await page.getByRole("button", { name: "New user" }).click();
    const dialog = page.getByRole("dialog", { name: "New user" });
    await dialog.getByLabel("First name").fill("Nina");
    await dialog.getByLabel("Last name").fill("Nurse");
    await dialog.getByLabel("E-mail").fill(email);
    await dialog.getByLabel("User", { exact: true }).check();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    const row = page.locator("table.data tbody tr").filter({ hasText: email });
    await expect(row).toContainText("Nurse");

    await page.getByRole("button", { name: "Edit Nina Nurse" }).click();
    const edit = page.getByRole("dialog", { name: "Edit user" });
    await expect(edit.getByLabel("E-mail")).toHaveAttribute("readonly", "");
    await edit.getByLabel("Last name").fill("Nightingale");
    await edit.getByLabel("Admin", { exact: true }).check();
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(row).toContainText("Nightingale");
    await expect(row).toContainText("User, Admin");

    await page.getByRole("button", { name: "Remove Nina Nightingale" }).click();
    await page.getByRole("dialog", { name: "Remove record" }).getByRole("button", { name: "Yes" }).click();
    await expect(row).toHaveCount(0);
  });

  test("an admin is offered no Edit or Remove on the sysAdmin, no Remove on themself, and edits a user's roles", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.admin, { redirect: "/users" });
    const rowOf = (email: string) => page.locator("table.data tbody tr").filter({ hasText: email });
    await expect(rowOf(DEMO_USERS.sysadmin)).toContainText("System admin");
    await expect(page.getByRole("button", { name: "Edit Sid Sysadmin" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Remove Sid Sysadmin" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Edit Ada Admin" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Remove Ada Admin" })).toHaveCount(0);

    const email = `plain.${Date.now()}@demo.test`;
    const created = await page.request.post("/api/users", {
      headers: XHR,
      data: { firstName: "Pat", lastName: "Plain", email, roles: 1 },
    });
    expect(created.status(), await created.text()).toBe(201);
    await page.reload();
    await page.getByRole("button", { name: "Edit Pat Plain" }).click();
    const edit = page.getByRole("dialog", { name: "Edit user" });
    await expect(edit.getByLabel("User", { exact: true })).toBeChecked();
    await expect(edit.getByLabel("System admin")).toHaveCount(0);
    await edit.getByLabel("Admin", { exact: true }).check();
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(edit).toBeHidden();
    await expect(rowOf(email)).toContainText("User, Admin");
    await expect(rowOf(DEMO_USERS.sysadmin)).toContainText("System admin");
  });

  test("a user without the admin role sees no admin screens", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { redirect: "/reports" });
    await expect(page.getByRole("button", { name: "Administration" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Tenants" })).toHaveCount(0);
    await page.goto("/users");
    await expect(page.getByText("You do not have access to this screen.")).toBeVisible();
  });
});

/** The token of the practice invitation link in the newest message of `dataDir`'s outbox sent to `to`. */
function invitationToken(dataDir: string, to: string): string {
  const dir = join(dataDir, "outbox");
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .sort()
    .reverse();
  for (const name of files) {
    const raw = readFileSync(join(dir, name), "utf8");
    if (!raw.includes(to)) continue;
    // Quoted-printable soft line breaks and the encoded "=" (RFC 2045 6.7).
    const body = raw.replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
    const token = /\/invitation#token=([A-Za-z0-9_-]+)/.exec(body)?.[1];
    if (token) return token;
  }
  throw new Error(`no invitation to ${to} in the outbox`);
}

test.describe("inviting a person of another practice", () => {
  // A server of its own: the journey takes a demo user out of the demo practice and invites them back.
  let server: ExtraServer;
  test.describe.configure({ timeout: 240_000 });

  test.beforeAll(async () => {
    server = await startServer({});
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("the admin's invitation is accepted on the invitation page", async ({ page, browser }) => {
    await login(page, DEMO_USERS.admin, { baseURL: server.baseURL, redirect: "/users" });
    // Morgan Multi also works for Demo Internal Medicine; once out of this practice, they belong only there.
    await page.getByRole("button", { name: "Remove Morgan Multi" }).click();
    await page.getByRole("dialog", { name: "Remove record" }).getByRole("button", { name: "Yes" }).click();
    const row = page.locator("table.data tbody tr").filter({ hasText: DEMO_USERS.multi });
    await expect(row).toHaveCount(0);

    await page.getByRole("button", { name: "New user" }).click();
    const dialog = page.getByRole("dialog", { name: "New user" });
    await dialog.getByLabel("First name").fill("Someone");
    await dialog.getByLabel("Last name").fill("Else");
    await dialog.getByLabel("E-mail").fill(DEMO_USERS.multi);
    await dialog.getByLabel("User", { exact: true }).check();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    const invited = `An invitation was e-mailed to ${DEMO_USERS.multi}; they join when they accept.`;
    await expect(page.getByRole("status").filter({ hasText: "An invitation" })).toHaveText(invited);
    await expect(row).toHaveCount(0);

    const token = invitationToken(server.dataDir, DEMO_USERS.multi);
    const invitee = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    try {
      const tab = await invitee.newPage();
      await tab.goto(`${server.baseURL}/invitation#token=${token}`);
      await expect(tab.getByRole("heading", { name: "Join Demo Family Practice" })).toBeVisible();
      await expectNoSeriousA11yViolations(tab);
      await tab.getByRole("button", { name: "Join Demo Family Practice" }).click();
      await expect(tab.getByRole("heading", { name: "You joined Demo Family Practice" })).toBeFocused();
      await expect(
        tab.getByRole("status").filter({ hasText: "You are now a member of Demo Family Practice." }),
      ).toBeVisible();
      await expect(tab.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
      await expectNoSeriousA11yViolations(tab);

      await tab.reload();
      await expect(
        tab.getByRole("alert").filter({ hasText: "This invitation is not valid any more." }),
      ).toBeVisible();

      await tab.getByRole("link", { name: "Go to sign in" }).click();
      await tab.getByLabel("E-mail").fill(DEMO_USERS.multi);
      await tab.getByLabel("Password").fill(DEMO_PASSWORD);
      await tab.getByRole("button", { name: "Sign in" }).click();
      await tab.waitForURL((url) => !url.pathname.startsWith("/auth"));
      const tenants = await tab.request.get(`${server.baseURL}/api/tenants/getMultiUserTenants`);
      const names = ((await tenants.json()) as { name: string }[]).map((t) => t.name).sort();
      expect(names).toEqual(["Demo Family Practice", "Demo Internal Medicine"]);
    } finally {
      await invitee.close();
    }

    await page.reload();
    await expect(row).toContainText("Morgan");
    await expect(row).toContainText("User");
  });
});

test.describe("locations and interfaces", () => {
  test("an admin adds a location, edits it inline with the required-field alert, and removes it", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.admin, { redirect: "/locations" });
    await expect(page.getByRole("heading", { name: "Locations" })).toBeVisible();
    const name = `North Clinic ${Date.now()}`;
    await page.getByRole("button", { name: "New location" }).click();
    const dialog = page.getByRole("dialog", { name: "New location" });
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Code").fill("NORTH");
    await dialog.getByRole("button", { name: "Save" }).click();
    const row = page.locator("table.data tbody tr").filter({ hasText: "NORTH" });
    await expect(row).toContainText(name);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("button", { name: `Edit ${name}` }).click();
    await row.getByLabel("Name").fill("");
    const alerts: string[] = [];
    page.once("dialog", (d) => {
      alerts.push(d.message());
      void d.accept();
    });
    await page.getByRole("button", { name: `Save ${name}` }).click();
    await expect.poll(() => alerts).toEqual(['Field "Name" is required.']);
    await row.getByLabel("Name").fill(`${name} East`);
    await page.getByRole("button", { name: `Save ${name}` }).click();
    await expect(row).toContainText(`${name} East`);

    await page.getByRole("button", { name: `Remove ${name} East` }).click();
    await page.getByRole("dialog", { name: "Remove record" }).getByRole("button", { name: "Yes" }).click();
    await expect(row).toHaveCount(0);
  });

  test("an admin adds an HL7 interface with its MRN assigning authority, each field error beside its field; the secret is never shown", async ({
    page,
  }) => {
    await login(page, DEMO_USERS.admin, { redirect: "/interfaces" });
    const name = `Lab feed ${Date.now()}`;
    await page.getByRole("button", { name: "New interface" }).click();
    const dialog = page.getByRole("dialog", { name: "New interface" });
    await dialog.getByRole("textbox", { name: "Name", exact: true }).fill(name);
    await dialog.getByLabel("Type").selectOption("hl7-mllp");
    await dialog.getByLabel("Host").fill("127.0.0.1");
    await dialog.getByLabel("Port").fill("2575");
    await dialog.getByLabel("Secret").fill("s3cret-value");
    await expect(dialog.getByLabel("ACK timeout (seconds)")).toHaveValue("");
    await dialog.getByLabel("ACK timeout (seconds)").fill("0");
    await dialog.getByLabel("Retry delays (seconds)").fill("5, 60");
    await dialog.getByLabel("Last attempt").fill("3");
    await dialog.getByLabel("MRN assigning authority").fill("North|Clinic");
    await dialog.getByLabel("Assigning authority OID").fill("2.16.840.01");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByLabel("ACK timeout (seconds)")).toHaveAccessibleDescription(/too small/i);
    await expect(dialog.getByLabel("MRN assigning authority")).toHaveAccessibleDescription(
      /must not contain the HL7 delimiters/i,
    );
    await expect(dialog.getByLabel("Assigning authority OID")).toHaveAccessibleDescription(
      /must be an ISO object identifier/i,
    );
    await expectNoSeriousA11yViolations(page);
    await dialog.getByLabel("ACK timeout (seconds)").fill("60");
    await dialog.getByLabel("MRN assigning authority").fill("North Clinic");
    await dialog.getByLabel("Assigning authority OID").fill("2.16.840.1.113883.3.72");
    await dialog.getByRole("button", { name: "Save" }).click();
    const row = page.locator("table.data tbody tr").filter({ hasText: name });
    await expect(row).toContainText("HL7 v2 over MLLP");
    await expect(row).toContainText("Stored");
    await expect(page.getByText("s3cret-value")).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: `Edit ${name}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit interface" });
    await expect(edit.getByLabel("ACK timeout (seconds)")).toHaveValue("60");
    await expect(edit.getByLabel("Retry delays (seconds)")).toHaveValue("5, 60");
    await expect(edit.getByLabel("Last attempt")).toHaveValue("3");
    await expect(edit.getByLabel("MRN assigning authority")).toHaveValue("North Clinic");
    await expect(edit.getByLabel("Assigning authority OID")).toHaveValue("2.16.840.1.113883.3.72");
    // Emptied, both are cleared: the formats fall back to the sending facility and the practice's id.
    await edit.getByLabel("MRN assigning authority").fill("");
    await edit.getByLabel("Assigning authority OID").fill("");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(edit).toBeHidden();
    await page.getByRole("button", { name: `Edit ${name}` }).click();
    await expect(edit.getByLabel("MRN assigning authority")).toHaveValue("");
    await expect(edit.getByLabel("Assigning authority OID")).toHaveValue("");
  });
});

test.describe("tenants", () => {
  test("a system admin creates and renames a tenant, its inbound set-up kept", async ({ page }) => {
    await login(page, DEMO_USERS.sysadmin, { redirect: "/reports" });
    await page.getByRole("button", { name: "Administration" }).click();
    await page.getByRole("link", { name: "Tenants" }).click();
    await expect(page.getByRole("heading", { name: "Tenants" })).toBeVisible();
    const id = `e2e-${Date.now()}`;
    await page.getByRole("button", { name: "New tenant" }).click();
    const dialog = page.getByRole("dialog", { name: "New tenant" });
    await dialog.getByLabel("Id").fill(id);
    await dialog.getByLabel("Name").fill("E2E Clinic");
    await dialog.getByLabel("Tele-AWV e-mail form").check();
    await dialog.getByRole("button", { name: "Save" }).click();
    const row = page.locator("table.data tbody tr").filter({ hasText: id });
    await expect(row).toContainText("E2E Clinic");
    await expectNoSeriousA11yViolations(page);
    // What is set elsewhere (the inbound set-up on "Inbound messages", the CDA contact) is not the
    // tenant form's: a rename keeps it.
    const inbound = {
      contact: { phone: "555-0100" },
      inboundFacilities: [{ facility: `FAC-${id}` }],
      inboundSenders: [{ application: "EHR", facility: "CLINIC", addresses: ["10.1.2.0/24"] }],
      inboundProcessingId: "T",
    };
    const put = await page.request.put(`/api/tenants/${id}`, {
      headers: XHR,
      data: { name: "E2E Clinic", settings: { teleAwvEmail: true, alternateFalls: false, ...inbound } },
    });
    expect(put.ok(), await put.text()).toBe(true);
    await page.reload();
    await page.getByRole("button", { name: "Edit E2E Clinic" }).click();
    const edit = page.getByRole("dialog", { name: "Edit tenant" });
    await expect(edit.getByLabel("Id")).toHaveAttribute("readonly", "");
    await edit.getByLabel("Name").fill("E2E Clinic Renamed");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(row).toContainText("E2E Clinic Renamed");
    const saved = (await (await page.request.get(`/api/tenants/${id}`)).json()) as {
      settings: Record<string, unknown>;
    };
    expect(saved.settings).toMatchObject(inbound);
  });
});

test.describe("reports", () => {
  test("orders the report list ascending or descending by a field", async ({ page }) => {
    await login(page, DEMO_USERS.admin, { redirect: "/reports" });
    const stamp = Date.now();
    for (const title of [`Alpha report ${stamp}`, `Zulu report ${stamp}`]) {
      const id = `e2e-${title.split(" ")[0]?.toLowerCase()}-${stamp}`;
      const response = await page.request.post(`/api/reports/${id}`, {
        headers: XHR,
        data: { id, title, script: "", markup: "<p>{{title}}</p>", mock: {}, clinical: false, version: 0 },
      });
      expect(response.ok(), await response.text()).toBe(true);
    }
    await page.reload();
    const titles = page.locator("table.data tbody tr td:first-child");
    await expect(titles.filter({ hasText: String(stamp) })).toHaveCount(2);
    await expect(page.getByLabel("Order by")).toHaveValue("title");
    const order = async () => (await titles.allTextContents()).filter((t) => t.includes(String(stamp)));
    expect(await order()).toEqual([`Alpha report ${stamp}`, `Zulu report ${stamp}`]);
    await page.getByLabel("Direction").selectOption("desc");
    expect(await order()).toEqual([`Zulu report ${stamp}`, `Alpha report ${stamp}`]);
    await expect(page.getByRole("columnheader", { name: /Title/ })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    await expectNoSeriousA11yViolations(page);
  });
});

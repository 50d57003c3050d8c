import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import {
  adminApi,
  DEMO_PASSWORD,
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  test,
} from "./fixtures";

const XHR = { "X-Requested-With": "XMLHttpRequest" };

test.describe("audit log", () => {
  test("an admin filters by user, patient, action and day, and exports the filtered events as safe CSV", async ({
    page,
    baseURL,
    playwright,
  }) => {
    const stamp = randomBytes(3).toString("hex");
    // A patient whose name starts like a spreadsheet formula, and a colleague's reads of that patient.
    const api = await adminApi(baseURL ?? "");
    const created = await api.post("/api/patients", {
      data: {
        mrn: `AU-${stamp}`,
        firstName: "Audra",
        lastName: `Trail${stamp}`,
        dob: "1950-05-05",
        sex: "F",
      },
    });
    expect(created.status()).toBe(201);
    const patient = (await created.json()) as { id: string; lastName: string };
    const nurse = await playwright.request.newContext({ baseURL, extraHTTPHeaders: XHR });
    expect(
      (
        await nurse.post("/api/auth/sessions", { data: { email: DEMO_USERS.staff, password: DEMO_PASSWORD } })
      ).status(),
    ).toBe(200);
    expect((await nurse.get(`/api/patients/${patient.id}`)).status()).toBe(200);
    await nurse.dispose();
    await api.dispose();

    await login(page, DEMO_USERS.admin);
    await expect(page.getByRole("heading", { name: "Today", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Administration" }).click();
    await page.getByRole("link", { name: "Audit log" }).click();
    await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
    const table = page.getByRole("table", { name: "Audit events" });
    await expect(table.getByRole("columnheader")).toHaveText([
      "When",
      "Who",
      "What",
      "Record",
      "From",
      "Details",
    ]);
    await expectNoSeriousA11yViolations(page);

    // By patient (chosen by name), user (by part of the e-mail) and action.
    const filters = page.getByRole("form", { name: "Filters" });
    await filters.getByRole("combobox", { name: "Patient" }).fill(`Trail${stamp}`);
    await page.getByRole("option", { name: new RegExp(`Trail${stamp}`) }).click();
    await filters.getByLabel("User").fill("staff@demo");
    await filters.getByLabel("Action").selectOption({ label: "Opened" });
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
    await filters.getByLabel("From").fill(day);
    await filters.getByLabel("To").fill(day);
    await filters.getByRole("button", { name: "Apply filters" }).click();

    await expect(page).toHaveURL(/user=staff%40demo/);
    await expect(page).toHaveURL(new RegExp(`patientId=${patient.id}`));
    const rows = table.locator("tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Sam Staff");
    await expect(rows.first()).toContainText(DEMO_USERS.staff);
    await expect(rows.first()).toContainText("Opened");
    await expect(rows.first().getByRole("link", { name: "Patient" })).toHaveAttribute(
      "href",
      `/patients/${patient.id}`,
    );
    await expect(page.getByRole("status").filter({ hasText: "match the filters" })).toHaveText(
      "1 event match the filters.",
    );

    // A reload keeps the filters.
    await page.reload();
    await expect(rows.first()).toContainText("Sam Staff");
    await expect(rows).toHaveCount(1);
    await expect(filters.getByLabel("User")).toHaveValue("staff@demo");
    await expect(filters).toContainText(`Trail${stamp}, Audra`);

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await file.path(), "utf8")
      .replace(/^\uFEFF/, "")
      .split("\r\n");
    expect(csv[0]).toBe("When (UTC),User,E-mail,Action,Record,Record id,From,Details");
    expect(csv.filter((line) => line !== "")).toHaveLength(2);
    expect(csv[1]).toContain(`,Sam Staff,${DEMO_USERS.staff},read,patient,${patient.id},`);

    await filters.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/\/audit$/);
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
  });

  test("neutralises a cell a spreadsheet would run as a formula", async ({ page, baseURL }) => {
    const api = await adminApi(baseURL ?? "");
    const email = `formula.${Date.now()}@demo.test`;
    const created = await api.post("/api/users", {
      data: {
        firstName: '=HYPERLINK("http://evil.test")',
        lastName: "+1",
        email,
        roles: 1,
        password: "amber kestrel harbour lantern 42",
      },
    });
    expect(created.status()).toBe(201);
    await api.dispose();
    await login(page, email, { password: "amber kestrel harbour lantern 42" });
    await page.goto("/auth/logout");

    await login(page, DEMO_USERS.admin, {
      redirect: `/audit?user=${encodeURIComponent(email)}&action=login`,
    });
    await expect(page.getByRole("table", { name: "Audit events" }).locator("tbody tr")).toHaveCount(1);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const csv = readFileSync(await (await download).path(), "utf8");
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.test"") +1",${email},login,session,`);
  });
});

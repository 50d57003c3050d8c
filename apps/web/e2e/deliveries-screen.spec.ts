import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import {
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  startServer,
  submittable,
  test,
  type ExtraServer,
} from "./fixtures";
import { startMllpPeer, type MllpPeer } from "../../api/test/peers/mllp-peer";

const XHR = { "X-Requested-With": "XMLHttpRequest" };

/** Saves a submitted result of a demo patient and sends it to the interface; answers the delivery id. */
async function sendResult(page: Page, base: string, interfaceId: string, tag: string): Promise<string> {
  const patients = (await (await page.request.get(`${base}/api/patients`)).json()) as {
    items: { id: string; mrn: string }[];
  };
  const patient = patients.items.find((p) => p.mrn === "D-1001");
  const surveys = (await (await page.request.get(`${base}/api/surveys`)).json()) as {
    items: { id: string }[];
  };
  const saved = await page.request.post(`${base}/api/surveyresults`, {
    headers: XHR,
    data: {
      clientRequestId: `e2e-screen-${tag}-${Date.now()}`,
      surveyId: surveys.items[0]?.id,
      patientId: patient?.id,
      isSubmitted: true,
      answers: submittable(surveys.items[0]?.id),
    },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const { id } = (await saved.json()) as { id: string };
  const sent = await page.request.post(`${base}/api/surveyresults/${id}/sendhl7`, {
    headers: XHR,
    data: { interfaceId },
  });
  expect(sent.status(), await sent.text()).toBe(202);
  return ((await sent.json()) as { deliveryId: string }).deliveryId;
}

// The delivery worker runs outside test mode only, so these tests use their own development-mode server.
let server: ExtraServer;
let listener: MllpPeer;

test.describe("Deliveries screen", () => {
  test.describe.configure({ timeout: 240_000 });

  test.beforeAll(async () => {
    listener = await startMllpPeer();
    listener.reason = "unknown patient";
    server = await startServer({ NODE_ENV: "development", LOG_LEVEL: "warn" });
  });

  test.afterAll(async () => {
    await server?.stop();
    await listener?.close();
  });

  test("filters by status, shows the message sent, and lets an admin skip a failed one so the queue goes on", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    const base = server.baseURL;
    await login(page, DEMO_USERS.admin, { baseURL: base, redirect: "/today" });
    const interfaceName = `Clinic EHR ${Date.now()}`;
    const created = await page.request.post(`${base}/api/interfaces`, {
      headers: XHR,
      data: {
        name: interfaceName,
        type: "hl7-mllp",
        host: "127.0.0.1",
        port: listener.port,
        sendingApplication: "CORECARE",
        sendingFacility: "DEMO",
        receivingApplication: "EHR",
        receivingFacility: "DEMO",
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const interfaceId = ((await created.json()) as { id: string }).id;

    // The receiver rejects the first message (a final failure); the second waits behind it.
    listener.mode = "AR";
    await sendResult(page, base, interfaceId, "first");
    await expect.poll(() => listener.controlIds().length, { timeout: 30_000 }).toBe(1);
    listener.mode = "AA";
    await sendResult(page, base, interfaceId, "second");

    await page.goto(`${base}/deliveries`);
    await expect(page.getByRole("heading", { name: "Deliveries", level: 1 })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Deliveries 1 failed" })).toBeVisible({ timeout: 30_000 });

    await page.getByLabel("Status").selectOption({ label: "Failed" });
    await expect(page).toHaveURL(/status=failed/);
    const table = page.getByRole("table", { name: "Deliveries" });
    const rows = table.locator("tbody tr");
    await expect(rows).toHaveCount(1);
    const failed = rows.first();
    await expect(failed).toContainText(interfaceName);
    await expect(failed).toContainText("HL7 v2 over MLLP");
    await expect(failed).toContainText("Failed");
    await expect(failed).toContainText("Receiver rejected the message (AR: unknown patient)");
    await expectNoSeriousA11yViolations(page);

    await failed.getByRole("button", { name: /^View message/ }).click();
    const dialog = page.getByRole("dialog", { name: "Message sent" });
    await expect(dialog).toBeVisible();
    const message = dialog.getByLabel("The message as sent");
    await expect(message).toContainText("MSH|");
    await expect(message).toContainText(`|${listener.controlIds()[0]}|`);
    await expect(dialog.getByRole("link", { name: "Download the message" })).toHaveAttribute(
      "href",
      /\/api\/deliveries\/[0-9a-f]{24}\/message\?download=true$/,
    );
    await expectNoSeriousA11yViolations(page);
    const download = page.waitForEvent("download");
    await dialog.getByRole("link", { name: "Download the message" }).click();
    expect((await download).suggestedFilename()).toBe(`${listener.controlIds()[0]}.hl7`);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();

    // The second message is held behind the failed one until it is skipped.
    expect(listener.controlIds()).toHaveLength(1);
    await failed.getByRole("button", { name: /^Skip / }).click();
    const confirm = page.getByRole("dialog", { name: "Skip this message" });
    await confirm.getByRole("button", { name: "Yes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Delivery skipped." })).toBeVisible();
    await expect(table).toContainText("No failed deliveries.");
    await expect(nav.getByRole("link", { name: "Deliveries", exact: true })).toBeVisible();
    await expect.poll(() => listener.controlIds().length, { timeout: 30_000 }).toBe(2);

    await page.getByLabel("Status").selectOption({ label: "Skipped" });
    await expect(rows).toHaveCount(1);
    await rows
      .first()
      .getByRole("button", { name: /^Resend / })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "Delivery queued." })).toBeVisible();
    await expect.poll(() => listener.controlIds().length, { timeout: 30_000 }).toBe(3);
    await page.getByLabel("Status").selectOption({ label: "Delivered" });
    await expect(table.locator("tbody tr").filter({ hasText: interfaceName })).toHaveCount(2, {
      timeout: 30_000,
    });

    // The filtered list as a spreadsheet: the delivered rows only.
    const downloaded = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV of deliveries" }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toMatch(/^deliveries-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync(await file.path(), "utf8")
      .split("\r\n")
      .filter((line) => line !== "");
    expect(lines[0]).toMatch(/^\uFEFFQueued \(UTC\),Status,/);
    const ours = lines.slice(1).filter((line) => line.includes(interfaceName));
    expect(ours).toHaveLength(2);
    for (const line of ours) expect(line).toContain(",delivered,");
  });

  test("filters by interface, finds a message by control id or patient, and keeps Skip in view at 1280 and 1024 px", async ({
    page,
  }) => {
    const base = server.baseURL;
    await login(page, DEMO_USERS.admin, { baseURL: base, redirect: "/today" });
    const make = async (name: string) => {
      const created = await page.request.post(`${base}/api/interfaces`, {
        headers: XHR,
        data: {
          name,
          type: "hl7-mllp",
          host: "127.0.0.1",
          port: listener.port,
          sendingApplication: "CORECARE",
          sendingFacility: "DEMO",
          receivingApplication: "EHR",
          receivingFacility: "DEMO",
        },
      });
      expect(created.ok(), await created.text()).toBe(true);
      return ((await created.json()) as { id: string }).id;
    };
    const stamp = Date.now();
    const held = await make(`Held EHR ${stamp}`);
    const other = await make(`Other EHR ${stamp}`);
    // The receiver is shared with the test before, which left its messages on it: this test waits for
    // its own message to be rejected (and failed) before the receiver accepts again.
    const before = listener.controlIds().length;
    listener.mode = "AR";
    const failedId = await sendResult(page, base, held, "held");
    await expect.poll(() => listener.controlIds().length, { timeout: 30_000 }).toBe(before + 1);
    await expect
      .poll(
        async () =>
          (
            (await (await page.request.get(`${base}/api/deliveries?interfaceId=${held}`)).json()) as {
              items: { id: string; status: string }[];
            }
          ).items.find((d) => d.id === failedId)?.status,
        { timeout: 30_000 },
      )
      .toBe("failed");
    listener.mode = "AA";
    await sendResult(page, base, held, "queued");
    await sendResult(page, base, other, "other");

    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 768 });
      await page.goto(`${base}/deliveries`);
      const table = page.getByRole("table", { name: "Deliveries" });
      await page.getByLabel("Interface").selectOption({ label: `Held EHR ${stamp}` });
      await expect(page).toHaveURL(new RegExp(`interface=${held}`));
      const rows = table.locator("tbody tr");
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText(`Held EHR ${stamp}`);
      // Every row's Skip (the queued one's too) lies inside the window: nothing to scroll sideways for.
      const skips = table.getByRole("button", { name: /^Skip / });
      await expect(skips).toHaveCount(2);
      for (const skip of await skips.all()) {
        const box = (await skip.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(width);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectNoSeriousA11yViolations(page);
    }

    const list = (await (await page.request.get(`${base}/api/deliveries?interfaceId=${held}`)).json()) as {
      items: { id: string; controlId: string }[];
    };
    const controlId = list.items.find((d) => d.id === failedId)!.controlId;
    await page.goto(`${base}/deliveries`);
    const search = page.getByLabel("Control id or patient");
    await search.fill(controlId.toLowerCase());
    await search.press("Enter");
    await expect(page).toHaveURL(/q=/);
    const rows = page.getByRole("table", { name: "Deliveries" }).locator("tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Failed");
    await search.fill("no such patient");
    await search.press("Enter");
    await expect(page.getByText("No deliveries yet.")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test("shows a staff user every delivery and the message, without resend or skip", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    const base = server.baseURL;
    await login(page, DEMO_USERS.staff, { baseURL: base, redirect: "/deliveries" });
    await expect(page.getByRole("heading", { name: "Deliveries", level: 1 })).toBeVisible();
    const rows = page.getByRole("table", { name: "Deliveries" }).locator("tbody tr");
    await expect(rows.first().getByRole("button", { name: /^View message/ })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByRole("button", { name: /^Resend / })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Skip / })).toHaveCount(0);
    await page.getByLabel("Status").selectOption({ label: "Skipped" });
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByRole("button", { name: /^Resend / })).toHaveCount(0);
    await rows
      .first()
      .getByRole("button", { name: /^View message/ })
      .click();
    await expect(
      page.getByRole("dialog", { name: "Message sent" }).getByLabel("The message as sent"),
    ).toContainText("MSH|");
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe("a stalled queue", () => {
  // Its own server, where a failed message stalls its queue after one minute (the least the setting takes).
  test.describe.configure({ timeout: 300_000 });
  let stallServer: ExtraServer;
  let receiver: MllpPeer;

  test.beforeAll(async () => {
    receiver = await startMllpPeer("AR");
    receiver.reason = "unknown patient";
    stallServer = await startServer({
      NODE_ENV: "development",
      LOG_LEVEL: "warn",
      DELIVERY_STALL_MINUTES: "1",
    });
  });

  test.afterAll(async () => {
    await stallServer?.stop();
    await receiver?.close();
  });

  test("is named on an admin's Today screen with a link to its messages, and e-mailed to the admins once", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    const base = stallServer.baseURL;
    await login(page, DEMO_USERS.admin, { baseURL: base, redirect: "/today" });
    const name = `Stalled EHR ${Date.now()}`;
    const created = await page.request.post(`${base}/api/interfaces`, {
      headers: XHR,
      data: {
        name,
        type: "hl7-mllp",
        host: "127.0.0.1",
        port: receiver.port,
        sendingApplication: "CORECARE",
        sendingFacility: "DEMO",
        receivingApplication: "EHR",
        receivingFacility: "DEMO",
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const interfaceId = ((await created.json()) as { id: string }).id;
    await sendResult(page, base, interfaceId, "stalled");
    await expect.poll(() => receiver.controlIds().length, { timeout: 30_000 }).toBe(1);

    const alert = page.getByRole("alert").filter({ hasText: "held an interface's queue" });
    await expect
      .poll(
        async () => {
          await page.goto(`${base}/today`);
          await expect(page.getByRole("heading", { name: "Today", level: 1 })).toBeVisible();
          await page.waitForLoadState("networkidle");
          return alert.count();
        },
        { timeout: 150_000, intervals: [5_000] },
      )
      .toBe(1);
    await expect(alert).toContainText("for more than 1 minute:");
    await expectNoSeriousA11yViolations(page);
    await alert.getByRole("link", { name }).click();
    await expect(page).toHaveURL(new RegExp(`/deliveries\\?interface=${interfaceId}`));
    await expect(page.getByRole("table", { name: "Deliveries" }).locator("tbody tr")).toHaveCount(1);

    // The stall check runs once a minute: its e-mail reaches the outbox once, without patient data.
    const outbox = join(stallServer.dataDir, "outbox");
    const stallMails = () =>
      (existsSync(outbox) ? readdirSync(outbox) : [])
        .filter((f) => f.endsWith(".eml"))
        .map((f) => readFileSync(join(outbox, f), "utf8"))
        .filter((text) => text.includes("are stalled") && text.includes(name.split(" ").pop()!));
    await expect.poll(() => stallMails().length, { timeout: 150_000, intervals: [5_000] }).toBeGreaterThan(0);
    const mails = stallMails();
    const recipients = mails.map((m) => /^To: (.+)$/m.exec(m)?.[1]);
    expect(new Set(recipients).size).toBe(recipients.length);
    for (const mail of mails) expect(mail).not.toContain("D-1001");
  });
});

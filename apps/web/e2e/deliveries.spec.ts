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

// The delivery worker runs outside test mode only, so these tests use their own development-mode server.
let server: ExtraServer;
let listener: MllpPeer;

test.describe("result deliveries", () => {
  test.describe.configure({ timeout: 240_000 });

  test.beforeAll(async () => {
    listener = await startMllpPeer();
    server = await startServer({ NODE_ENV: "development", LOG_LEVEL: "warn" });
  });

  test.afterAll(async () => {
    await server?.stop();
    await listener?.close();
  });

  test("shows a result's deliveries with status, attempts and ACK, and resends one", async ({ page }) => {
    const base = server.baseURL;
    await login(page, DEMO_USERS.admin, { baseURL: base, redirect: "/results" });
    const stamp = Date.now();

    const patients = (await (await page.request.get(`${base}/api/patients`)).json()) as {
      items: { id: string; mrn: string }[];
    };
    const patient = patients.items.find((p) => p.mrn === "D-1001");
    expect(patient).toBeDefined();
    const surveys = (await (await page.request.get(`${base}/api/surveys`)).json()) as {
      items: { id: string }[];
    };
    const saved = await page.request.post(`${base}/api/surveyresults`, {
      headers: XHR,
      data: {
        clientRequestId: `e2e-deliv-${stamp}`,
        surveyId: surveys.items[0]?.id,
        patientId: patient?.id,
        isSubmitted: true,
        answers: submittable(surveys.items[0]?.id),
      },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
    const { id } = (await saved.json()) as { id: string };
    const interfaceName = `MLLP ${stamp}`;
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

    await page.goto(`${base}/results/${id}`);
    const table = page.getByRole("table", { name: "Deliveries" });
    await expect(table).toBeVisible();
    await expect(table.getByRole("columnheader")).toHaveText([
      "Sent",
      "Format",
      "Interface",
      "Status",
      "Attempts",
      "Last error",
      "ACK",
      "Actions",
    ]);
    await expect(table).toContainText("No deliveries yet.");
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("button", { name: "Send", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Send result" });
    await dialog.getByLabel("Location").selectOption({ label: "Main Clinic" });
    await dialog.getByLabel("Interface").selectOption({ label: interfaceName });
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await expect(dialog).toBeHidden();

    const rows = table.locator("tbody tr");
    await expect(rows).toHaveCount(1);
    const first = rows.first();
    await expect(first.getByRole("cell").nth(1)).toHaveText("HL7");
    await expect(first.getByRole("cell").nth(2)).toHaveText(interfaceName);
    await expect(first.getByRole("cell").nth(3)).toHaveText("delivered", { timeout: 30_000 });
    await expect.poll(() => listener.controlIds().length, { timeout: 15_000 }).toBe(1);
    const [firstControlId] = listener.controlIds();
    expect(firstControlId).toMatch(/\S/);
    await expect(first.getByRole("cell").nth(4)).toHaveText("1");
    await expect(first.getByRole("cell").nth(5)).toHaveText("");
    await expect(first.getByRole("cell").nth(6)).toHaveText(`MSA|AA|${firstControlId}`);
    await expectNoSeriousA11yViolations(page);

    await first.getByRole("button", { name: /^Resend / }).click();
    await expect(page.getByRole("status").filter({ hasText: "Delivery queued." })).toBeVisible();
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByRole("cell").nth(3)).toHaveText("delivered", { timeout: 30_000 });
    await expect(rows.nth(1).getByRole("cell").nth(3)).toHaveText("delivered");
    await expect.poll(() => listener.controlIds().length, { timeout: 15_000 }).toBe(2);
    const secondControlId = listener.controlIds()[1];
    expect(secondControlId).not.toBe(firstControlId);
    await expect(rows.nth(0).getByRole("cell").nth(6)).toHaveText(`MSA|AA|${secondControlId}`);
    await expect(rows.nth(1).getByRole("cell").nth(6)).toHaveText(`MSA|AA|${firstControlId}`);
  });
});

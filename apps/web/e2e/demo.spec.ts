import {
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  startServer,
  test,
  type ExtraServer,
} from "./fixtures";
import { startMllpPeer } from "../../api/test/peers/mllp-peer";

const XHR = { "X-Requested-With": "XMLHttpRequest" };

// `pnpm start` as a first-time user runs it: development mode, a new database seeded with the demo, the
// delivery worker and the local demo receiver running.
let server: ExtraServer;

test.describe("demo data", () => {
  test.describe.configure({ timeout: 240_000 });

  test.beforeAll(async () => {
    server = await startServer({ NODE_ENV: "development", LOG_LEVEL: "warn" });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("a first start shows a day of work, and the demo HL7 interface acknowledges what is sent to it", async ({
    page,
  }) => {
    const base = server.baseURL;
    await login(page, DEMO_USERS.staff, { baseURL: base });
    await page.waitForURL(/\/today$/);

    const inProgress = page.getByRole("table", { name: "Surveys in progress" });
    await expect(inProgress.getByRole("row").filter({ hasText: "Walter Hobbs" })).toContainText(
      "Core Care Wellness Exam",
    );
    const submitted = page.getByRole("table", { name: "Surveys submitted today" });
    await expect(submitted.getByRole("row").filter({ hasText: "Rosa Delgado" })).toContainText("Tele-AWV");
    await expect(submitted.getByRole("row").filter({ hasText: "Eleanor Rigby" })).toHaveCount(2);
    await expect(page.locator(".safety-alert")).toHaveCount(1);
    await expect(page.locator(".safety-alert")).toContainText("PHQ-9 item 9");
    // The seeded delivery reached the demo receiver: nothing needs attention.
    await expect(page.getByRole("table", { name: "Deliveries needing attention" })).toContainText(
      "Every delivery of the results since yesterday went through or is on its way.",
    );
    await expectNoSeriousA11yViolations(page);

    // Rosa's Tele-AWV result, sent to the demo interface from its page, is acknowledged AA.
    await submitted
      .getByRole("row")
      .filter({ hasText: "Rosa Delgado" })
      .getByRole("link", {
        name: "Annual Wellness Visit",
      })
      .click();
    await page.getByRole("button", { name: "Send" }).click();
    const dialog = page.getByRole("dialog", { name: "Send result" });
    await dialog.getByLabel("Interface").selectOption({ label: "Demo EHR (local HL7 receiver)" });
    await dialog.getByRole("button", { name: "Confirm" }).click();
    const deliveries = page.getByRole("table", { name: "Deliveries" });
    await expect(deliveries.getByRole("row").filter({ hasText: "delivered" })).toContainText("MSA|AA|", {
      timeout: 60_000,
    });
  });

  test("Today lists a delivery the EHR refused, and its result opens from there", async ({ page }) => {
    const base = server.baseURL;
    // An EHR that refuses every message (AR, HL7 table 0008: rejected).
    const refusing = await startMllpPeer("AR");
    try {
      await login(page, DEMO_USERS.admin, { baseURL: base, redirect: "/interfaces" });
      const created = await page.request.post(`${base}/api/interfaces`, {
        headers: XHR,
        data: {
          name: "Refusing EHR",
          type: "hl7-mllp",
          host: "127.0.0.1",
          port: refusing.port,
          sendingApplication: "CORECARE",
          sendingFacility: "DEMO",
          receivingApplication: "EHR",
          receivingFacility: "DEMO",
        },
      });
      expect(created.ok(), await created.text()).toBe(true);
      const { id: interfaceId } = (await created.json()) as { id: string };
      const results = (await (await page.request.get(`${base}/api/surveyresults?duration=5`)).json()) as {
        items: { id: string; patientName: string; isSubmitted: boolean; surveyTitle: string }[];
      };
      const rigby = results.items.find(
        (r) => r.patientName === "Eleanor Rigby" && r.surveyTitle === "Core Care Wellness Exam",
      );
      expect(rigby).toBeDefined();
      const sent = await page.request.post(`${base}/api/surveyresults/${rigby?.id}/sendhl7`, {
        headers: XHR,
        data: { interfaceId },
      });
      expect(sent.status()).toBe(202);

      // The receiver answers AR, which fails the delivery at once (no retry).
      await expect
        .poll(
          async () => {
            const res = await page.request.get(`${base}/api/surveyresults/${rigby?.id}/deliveries`);
            return ((await res.json()) as { status: string }[]).map((d) => d.status);
          },
          { timeout: 60_000 },
        )
        .toContain("failed");
      await page.goto(`${base}/today`);
      const attention = page.getByRole("table", { name: "Deliveries needing attention" });
      const row = attention.getByRole("row").filter({ hasText: "Eleanor Rigby" });
      await expect(row).toContainText("Failed");
      await expect(row).toContainText("HL7");
      await expectNoSeriousA11yViolations(page);
      await row.getByRole("link", { name: "Core Care Wellness Exam" }).click();
      await expect(page).toHaveURL(new RegExp(`/results/${rigby?.id}$`));
    } finally {
      await refusing.close();
    }
  });
});

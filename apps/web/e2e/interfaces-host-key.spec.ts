import { randomBytes } from "node:crypto";
import { startSftpPeer, type SftpPeer } from "../../api/test/peers/sftp-peer";
import {
  adminApi,
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  startServer,
  submittable,
  test,
  type ExtraServer,
} from "./fixtures";

let peer: SftpPeer;
// A server of its own whose delivery worker runs (the suite's shared server, in test mode, sends nothing).
let server: ExtraServer;

test.beforeAll(async () => {
  peer = await startSftpPeer();
  server = await startServer({ NODE_ENV: "development", LOG_LEVEL: "warn" });
});

test.afterAll(async () => {
  await server?.stop();
  await peer?.close();
});

test.describe("SFTP host key", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test.describe.configure({ timeout: 240_000 });

  test("nothing is sent before an admin checks the connection and confirms the key shown; then the resent file arrives", async ({
    page,
  }) => {
    const api = await adminApi(server.baseURL);
    const name = `Drop box ${randomBytes(3).toString("hex")}`;
    const created = await api.post("/api/interfaces", {
      data: {
        name,
        type: "sftp",
        host: "127.0.0.1",
        port: peer.port,
        username: peer.username,
        secret: peer.password,
        path: "/upload",
        sendingApplication: "CORECARE",
        sendingFacility: "DEMO",
        receivingApplication: "EHR",
        receivingFacility: "HOSP",
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const iface = (await created.json()) as { id: string };

    const deliveriesOf = async (resultId: string) =>
      (await (await api.get(`/api/surveyresults/${resultId}/deliveries`)).json()) as {
        id: string;
        status: string;
        lastError: string | null;
      }[];

    // Before any key is confirmed, a result sent there fails at once and nothing reaches the server.
    const patients = (await (await api.get("/api/patients?q=D-1001")).json()) as { items: { id: string }[] };
    const surveys = (await (await api.get("/api/surveys")).json()) as { items: { id: string }[] };
    const surveyId = surveys.items[0]?.id;
    const saved = await api.post("/api/surveyresults", {
      data: {
        clientRequestId: `host-key-${randomBytes(4).toString("hex")}`,
        surveyId,
        patientId: patients.items[0]?.id,
        isSubmitted: true,
        answers: submittable(surveyId),
      },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
    const { id } = (await saved.json()) as { id: string };
    const sent = await api.post(`/api/surveyresults/${id}/sftpout`, { data: { interfaceId: iface.id } });
    expect(sent.status(), await sent.text()).toBe(202);
    await expect.poll(async () => (await deliveriesOf(id))[0]?.status, { timeout: 30_000 }).toBe("failed");
    const [refused] = await deliveriesOf(id);
    expect(refused?.lastError).toContain("has not been confirmed");
    expect(peer.files.size).toBe(0);

    await login(page, DEMO_USERS.admin, { baseURL: server.baseURL, redirect: "/interfaces" });
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText("Not confirmed");
    await row.getByRole("button", { name: `Check connection of ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: `Connection to ${name}` });
    await expect(dialog.locator("code")).toHaveText(peer.hostKeySha256);
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole("button", { name: "Confirm this key" }).click();
    await expect(dialog.getByText("Host key confirmed.")).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await page.reload();
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Confirmed");

    // Resent once the key is confirmed, the result's file reaches the server.
    const resent = await api.post(`/api/deliveries/${refused?.id}/resend`);
    expect(resent.status(), await resent.text()).toBe(202);
    await expect
      .poll(async () => (await deliveriesOf(id)).map((d) => d.status).sort(), { timeout: 30_000 })
      .toEqual(["delivered", "skipped"]);
    expect([...peer.files.keys()].filter((path) => path.endsWith(".hl7"))).toHaveLength(1);
    await api.dispose();
  });
});

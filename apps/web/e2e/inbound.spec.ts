import { createServer, Socket } from "node:net";
import { randomBytes } from "node:crypto";
import {
  DEMO_USERS,
  expect,
  expectNoSeriousA11yViolations,
  login,
  startServer,
  test,
  type ExtraServer,
} from "./fixtures";

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

/** Sends one HL7 message over MLLP to 127.0.0.1:port and resolves with the ACK. */
function sendMllp(port: number, message: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf(Buffer.from([0x1c, 0x0d]));
      if (end !== -1) {
        socket.destroy();
        resolve(buffer.subarray(1, end).toString("utf8"));
      }
    });
    socket.on("error", reject);
    socket.connect(port, "127.0.0.1", () => {
      socket.write(
        Buffer.concat([Buffer.from([0x0b]), Buffer.from(message, "utf8"), Buffer.from([0x1c, 0x0d])]),
      );
    });
  });
}

const adt = (facility: string, controlId: string, mrn: string, dob: string, sender = "EHR|CLINIC") =>
  [
    `MSH|^~\\&|${sender}|CORECARE|${facility}|20261127010000||ADT^A04^ADT_A01|${controlId}|P|2.5.1`,
    "EVN|A04|20261127010000",
    `PID|1||${mrn}^^^EHR^MR||Inbound^Ivy||${dob}|F`,
  ].join("\r");

let server: ExtraServer;
let inboundPort: number;

test.describe("inbound messages", () => {
  test.describe.configure({ timeout: 240_000 });
  test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true });

  test.beforeAll(async () => {
    inboundPort = await freePort();
    server = await startServer({ INBOUND_HL7_PORT: String(inboundPort) });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("an admin names the receiving facility and the EHR as sender, and reads what it sent, with the field at fault", async ({
    page,
  }) => {
    const stamp = randomBytes(3).toString("hex").toUpperCase();
    const facility = `FAC${stamp}`;
    await login(page, DEMO_USERS.admin, { baseURL: server.baseURL });
    // The menu opens once the home page has rendered (a click before that is lost).
    await expect(page.getByRole("heading", { name: "Today", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Administration" }).click();
    await page.getByRole("link", { name: "Inbound messages" }).click();
    await expect(page.getByRole("heading", { name: "Inbound messages", level: 1 })).toBeVisible();
    await expect(page.getByText("No receiving facility yet: inbound messages are rejected.")).toBeVisible();

    // Before the facility is named, the EHR's message is rejected.
    expect(await sendMllp(inboundPort, adt(facility, `R${stamp}`, `IN-${stamp}`, "19700101"))).toMatch(
      /\rMSA\|AR\|/,
    );

    await page.getByRole("button", { name: "Add a facility" }).click();
    await page.getByLabel("Receiving facility (MSH-6)").fill(facility);
    await page.getByRole("button", { name: "Save facilities" }).click();
    await expect(page.getByText("Receiving facilities saved.")).toBeVisible();

    // The facility is named, the sender not yet: still rejected.
    await expect(page.getByText("No sender yet: inbound messages are rejected.")).toBeVisible();
    expect(await sendMllp(inboundPort, adt(facility, `S${stamp}`, `IN-${stamp}`, "19700101"))).toMatch(
      /\rMSA\|AR\|S.*\rERR\|\|MSH\^1\^4\^1\|/s,
    );

    // The EHR as sender, from this machine; a mistyped address is named beside its field.
    await page.getByRole("button", { name: "Add a sender" }).click();
    await page.getByLabel("Sending application (MSH-3)").fill("EHR");
    await page.getByLabel("Sending facility (MSH-4)").fill("CLINIC");
    const addresses = page.getByLabel("Addresses allowed");
    await addresses.fill("127.0.0.1, 10.0.0.300");
    await page.getByRole("button", { name: "Save senders" }).click();
    await expect(page.getByText("Please correct the field marked below.")).toBeVisible();
    await expect(addresses).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("10.0.0.300: Must be an IP address")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await addresses.fill("127.0.0.1, ::1");
    await expect(page.getByLabel("Messages applied (MSH-11 processing id)")).toHaveValue("P");
    await page.getByRole("button", { name: "Save senders" }).click();
    await expect(page.getByText("Senders saved.")).toBeVisible();
    // A sender the practice does not name is rejected, naming it.
    expect(
      await sendMllp(inboundPort, adt(facility, `X${stamp}`, `IN-${stamp}`, "19700101", "ROGUE|LAB")),
    ).toMatch(/\rMSA\|AR\|X\w+\|The sender ROGUE of LAB/);

    expect(await sendMllp(inboundPort, adt(facility, `G${stamp}`, `IN-${stamp}`, "19700101"))).toMatch(
      /\rMSA\|AA\|/,
    );
    expect(await sendMllp(inboundPort, adt(facility, `B${stamp}`, `BAD-${stamp}`, "19701399"))).toMatch(
      /\rMSA\|AE\|.*\rERR\|\|PID\^1\^7\^1\|/s,
    );

    await page.reload();
    const table = page.getByRole("table", { name: "Inbound messages" });
    await expect(table.getByRole("columnheader")).toHaveText([
      "Received",
      "Type",
      "Control id",
      "Outcome",
      "Patient MRN",
      "Error",
    ]);
    const accepted = table.getByRole("row").filter({ hasText: `G${stamp}` });
    await expect(accepted).toContainText("ADT^A04");
    await expect(accepted).toContainText("Accepted (AA), patient created");
    await expect(accepted.getByRole("link", { name: `IN-${stamp}` })).toBeVisible();
    const refused = table.getByRole("row").filter({ hasText: `B${stamp}` });
    await expect(refused).toContainText("Error (AE)");
    await expect(refused).toContainText("PID-7: Must be a date of birth (YYYYMMDD).");
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel("Outcome").selectOption({ label: "Error (AE)" });
    await expect(page).toHaveURL(/outcome=AE/);
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await expect(page.getByRole("status").filter({ hasText: "1 message." })).toBeVisible();

    // The created patient opens from its MRN.
    await page.getByLabel("Outcome").selectOption({ label: "Any outcome" });
    await accepted.getByRole("link", { name: `IN-${stamp}` }).click();
    await expect(page.getByLabel("MRN")).toHaveValue(`IN-${stamp}`);
  });

  test("a practice's user does not see the screen", async ({ page }) => {
    await login(page, DEMO_USERS.staff, { baseURL: server.baseURL, redirect: "/inbound" });
    await expect(page.getByText("You do not have access to this screen.")).toBeVisible();
  });
});

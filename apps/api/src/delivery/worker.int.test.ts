import { and, eq } from "drizzle-orm";
import { Hl7Message } from "@medplum/core";
import { beforeAll, describe, expect, test } from "vitest";
import { createDeliveryFixture } from "../../test/peers/delivery-fixtures.js";
import { deliveryHarness } from "../../test/peers/delivery-harness.js";
import { startFhirPeer } from "../../test/peers/fhir-peer.js";
import { startMllpPeer, type MllpPeer } from "../../test/peers/mllp-peer.js";
import { startSftpPeer } from "../../test/peers/sftp-peer.js";
import { validateCda } from "../../test/peers/standards.js";
import type { Db } from "../db/index.js";
import { auditEvents, deliveries, interfaces, patients, tenants } from "../db/schema.js";

/** Short ACK timeouts and retry delays, so a test moves its worker's clock by seconds, not hours. */
const FAST = { ackTimeoutSeconds: 5, retryDelaysSeconds: [1, 2, 4] };

const ground = deliveryHarness();
const { newWorker, mllpPeer, queue } = ground;
let db: Db;
let tenantId: string;
beforeAll(() => {
  ({ db, tenantId } = ground);
});

async function row(id: string) {
  const [r] = await db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.id, id)));
  return r!;
}

const controlIds = (peer: MllpPeer) => peer.received.map((m) => m.getSegment("MSH")?.getField(10).toString());

describe("DeliveryWorker over MLLP", () => {
  test("delivers an ORU^R01 and records the AA acknowledgment with an audit event", async () => {
    const peer = await mllpPeer("AA");
    const fixture = await createDeliveryFixture(db, tenantId, {
      type: "hl7-mllp",
      port: peer.port,
      settings: FAST,
    });
    const id = await queue(fixture);
    const { worker } = newWorker();
    expect(await worker.runOnce()).toBe(1);
    const delivered = await row(id);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 1, lastError: null });
    expect(delivered.ack).toMatch(/^MSH\|.*\rMSA\|AA\|/);
    expect(delivered.deliveredAt).toBeInstanceOf(Date);
    expect(controlIds(peer)).toEqual([delivered.controlId]);
    const message = peer.received[0]!;
    expect(message.getSegment("PID")?.getComponent(5, 1)).toBe("O'Brien");
    expect(message.getSegment("PV1")?.getComponent(3, 9)).toBe("Main Street Clinic");
    const codes = message.getAllSegments("OBX").map((s) => s.getComponent(3, 1));
    expect(codes).toEqual(expect.arrayContaining(["44250-9", "44255-8", "44261-6", "55758-7", "72166-2"]));
    const events = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.entityId, id)));
    expect(events.map((e) => e.entity).sort()).toEqual(["delivery", "delivery:delivered"]);
    expect(await worker.runOnce()).toBe(0);
    expect(peer.received).toHaveLength(1);
  });

  test("retries after AE with backoff and keeps the control id until AA", async () => {
    const peer = await mllpPeer("AE");
    const fixture = await createDeliveryFixture(db, tenantId, {
      type: "hl7-mllp",
      port: peer.port,
      settings: FAST,
    });
    const id = await queue(fixture);
    const { worker, offset } = newWorker();
    await worker.runOnce();
    const first = await row(id);
    expect(first).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "Receiver answered AE: rejected by test peer",
    });
    expect(first.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(500);
    expect(await worker.runOnce()).toBe(0);
    offset.ms = 1_500;
    await worker.runOnce();
    expect(await row(id)).toMatchObject({ status: "pending", attempts: 2 });
    peer.mode = "AA";
    offset.ms = 4_000;
    await worker.runOnce();
    expect(await row(id)).toMatchObject({ status: "delivered", attempts: 3, lastError: null });
    expect(new Set(controlIds(peer))).toEqual(new Set([first.controlId]));
    expect(controlIds(peer)).toHaveLength(3);
  });

  test("fails at once when the receiver rejects with AR", async () => {
    const peer = await mllpPeer("AR");
    const fixture = await createDeliveryFixture(db, tenantId, {
      type: "hl7-mllp",
      port: peer.port,
      settings: FAST,
    });
    const id = await queue(fixture);
    const { worker } = newWorker();
    await worker.runOnce();
    expect(await row(id)).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: "Receiver rejected the message (AR: rejected by test peer)",
    });
  });

  test("retries after a timeout and a dropped connection, then fails after the last attempt", async () => {
    const peer = await mllpPeer("silent");
    const fixture = await createDeliveryFixture(db, tenantId, {
      type: "hl7-mllp",
      port: peer.port,
      settings: { ackTimeoutSeconds: 1, retryDelaysSeconds: [1], maxAttempts: 2 },
    });
    const id = await queue(fixture);
    const { worker, offset } = newWorker();
    await worker.runOnce();
    expect(await row(id)).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: `The receiver at 127.0.0.1:${peer.port} did not answer (no acknowledgment within 1 s).`,
    });
    peer.mode = "drop";
    offset.ms = 5_000;
    await worker.runOnce();
    expect(await row(id)).toMatchObject({
      status: "failed",
      attempts: 2,
      lastError: `The receiver at 127.0.0.1:${peer.port} closed the connection before acknowledging the message. Gave up after 2 attempts.`,
    });
  });

  test("fails at once, in plain words, on a host name that does not exist or a port nobody listens on", async () => {
    const unknownHost = await createDeliveryFixture(db, tenantId, {
      type: "hl7-mllp",
      host: "no-such-host.invalid",
      port: 2575,
      settings: FAST,
    });
    const closed = await startMllpPeer("AA");
    const port = closed.port;
    await closed.close();
    const refused = await createDeliveryFixture(db, tenantId, { type: "hl7-mllp", port, settings: FAST });
    const a = await queue(unknownHost);
    const b = await queue(refused);
    const { worker } = newWorker();
    expect(await worker.runOnce()).toBe(2);
    expect(await row(a)).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: `The host name "no-such-host.invalid" could not be found. Check the interface's host.`,
    });
    expect(await row(b)).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: `The receiver at 127.0.0.1:${port} refused the connection. Check the interface's host and port.`,
    });
  });

  test("delivers exactly once to a receiver that was down for a while", async () => {
    const first = await startMllpPeer("AA");
    const port = first.port;
    const fixture = await createDeliveryFixture(db, tenantId, { type: "hl7-mllp", port, settings: FAST });
    await queue(fixture);
    const { worker, offset } = newWorker();
    expect(await worker.runOnce()).toBe(1);
    await first.close();
    const id = await queue(fixture);
    await worker.runOnce();
    offset.ms = 1_500;
    await worker.runOnce();
    expect(await row(id)).toMatchObject({
      status: "pending",
      attempts: 2,
      lastError: `The receiver at 127.0.0.1:${port} refused the connection.`,
    });

    const back = await startMllpPeer("AA", port);
    ground.closeAfter(back);
    for (const ms of [5_000, 60_000, 600_000]) {
      offset.ms = ms;
      await worker.runOnce();
    }
    expect(await row(id)).toMatchObject({ status: "delivered", attempts: 3 });
    expect(back.received).toHaveLength(1);
  });

  test("retries a delivery left 'sending' by a crashed worker, with the same control id, after its lease", async () => {
    const peer = await mllpPeer("AA");
    const fixture = await createDeliveryFixture(db, tenantId, {
      type: "hl7-mllp",
      port: peer.port,
      settings: FAST,
    });
    const id = await queue(fixture);
    await db
      .update(deliveries)
      .set({ status: "sending", attempts: 1, nextAttemptAt: new Date(Date.now() + 60_000) })
      .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.id, id)));
    const { worker, offset } = newWorker();
    expect(await worker.runOnce()).toBe(0);
    offset.ms = 61_000;
    expect(await worker.runOnce()).toBe(1);
    const done = await row(id);
    expect(done).toMatchObject({ status: "delivered", attempts: 2 });
    expect(controlIds(peer)).toEqual([done.controlId]);
  });

  test("two workers never send the same delivery, and send one interface's in queue order", async () => {
    const peer = await mllpPeer("AA");
    const fixture = await createDeliveryFixture(db, tenantId, {
      type: "hl7-mllp",
      port: peer.port,
      settings: FAST,
    });
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await queue(fixture));
    const a = newWorker({ batchSize: 4 }).worker;
    const b = newWorker({ batchSize: 4 }).worker;
    const handled = await Promise.all([a.runOnce(), b.runOnce()]);
    await Promise.all([a.runOnce(), b.runOnce()]);
    expect(handled[0] + handled[1]).toBeGreaterThanOrEqual(1);
    for (const id of ids) expect((await row(id)).status).toBe("delivered");
    expect(controlIds(peer)).toEqual((await Promise.all(ids.map(row))).map((r) => r.controlId));
  });
});

describe("DeliveryWorker over SFTP and HTTP", () => {
  test("drops a CDA document that validates against the schema on an SFTP server", async () => {
    const peer = await startSftpPeer();
    ground.closeAfter(peer);
    const fixture = await createDeliveryFixture(db, tenantId, {
      type: "cda-sftp",
      port: peer.port,
      username: peer.username,
      secret: peer.password,
      hostKeySha256: peer.hostKeySha256,
      path: "/upload",
      settings: FAST,
    });
    const id = await queue(fixture, "cda");
    const { worker } = newWorker();
    await worker.runOnce();
    const done = await row(id);
    expect(done.status).toBe("delivered");
    const [path, content] = [...peer.files.entries()][0]!;
    expect(path).toMatch(
      new RegExp(
        `^/upload/${tenantId}_${fixture.resultId}_\\d{8}T\\d{6}Z_${(await row(id)).controlId}\\.xml$`,
      ),
    );
    expect(done.ack).toBe(`written: ${path}`);
    expect(await validateCda(content.toString("utf8"))).toEqual({ valid: true, errors: "" });
  });

  test("drops the ORU^R01 as an .hl7 file on an SFTP server (sftpout)", async () => {
    const peer = await startSftpPeer();
    ground.closeAfter(peer);
    const fixture = await createDeliveryFixture(db, tenantId, {
      type: "sftp",
      port: peer.port,
      username: peer.username,
      secret: peer.password,
      hostKeySha256: peer.hostKeySha256,
      path: "/upload",
      settings: FAST,
    });
    const id = await queue(fixture, "sftp");
    const { worker } = newWorker();
    await worker.runOnce();
    const done = await row(id);
    expect(done.status).toBe("delivered");
    expect(peer.files.size).toBe(1);
    const [path, content] = [...peer.files.entries()][0]!;
    expect(path).toMatch(
      new RegExp(`^/upload/${tenantId}_${fixture.resultId}_\\d{8}T\\d{6}Z_${done.controlId}\\.hl7$`),
    );
    const message = Hl7Message.parse(content.toString("utf8"));
    expect(message.getSegment("MSH")?.getField(9).toString()).toBe("ORU^R01^ORU_R01");
    expect(message.getSegment("MSH")?.getField(10).toString()).toBe(done.controlId);
  });

  test("queues what the records hold: the patient's race and ethnicity, the interface's processing id, the practice's contact", async () => {
    const fixture = await createDeliveryFixture(db, tenantId, { type: "hl7-mllp", port: 9 });
    await db
      .update(patients)
      .set({ race: "Caucasian", ethnicity: "Hispanic or Latino" })
      .where(and(eq(patients.tenantId, tenantId), eq(patients.id, fixture.patientId)));
    await db
      .update(interfaces)
      .set({ processingId: "T" })
      .where(and(eq(interfaces.tenantId, tenantId), eq(interfaces.id, fixture.interfaceId)));
    const [tenant] = await db.select().from(tenants).where(eq(tenants.id, tenantId));
    await db
      .update(tenants)
      .set({
        settings: {
          ...tenant!.settings,
          contact: {
            address: { street: "12 Elm Street", city: "Springfield", state: "IL", zip: "62701" },
            phone: "555-010-2000",
          },
        },
      })
      .where(eq(tenants.id, tenantId));
    const hl7 = Hl7Message.parse((await row(await queue(fixture, "hl7"))).payload ?? "");
    expect(hl7.getSegment("MSH")?.getField(11).toString()).toBe("T");
    expect(hl7.getSegment("PID")?.getField(10).toString()).toContain("2106-3");
    expect(hl7.getSegment("PID")?.getField(22).toString()).toContain("2135-2");
    const cdaFixture = await createDeliveryFixture(db, tenantId, { type: "cda-sftp", port: 9 });
    const cda = (await row(await queue(cdaFixture, "cda"))).payload ?? "";
    expect(cda).toContain("12 Elm Street");
    expect(cda).toContain("tel:5550102000");
  });

  test("fails at once, writing nothing, when the SFTP server presents another host key than the confirmed one", async () => {
    const peer = await startSftpPeer();
    ground.closeAfter(peer);
    const confirmed = `SHA256:${"A".repeat(43)}`;
    const fixture = await createDeliveryFixture(db, tenantId, {
      type: "sftp",
      port: peer.port,
      username: peer.username,
      secret: peer.password,
      hostKeySha256: confirmed,
      path: "/upload",
      settings: FAST,
    });
    const id = await queue(fixture, "sftp");
    const { worker } = newWorker();
    await worker.runOnce();
    const done = await row(id);
    expect(done.status).toBe("failed");
    expect(done.attempts).toBe(1);
    expect(done.lastError).toContain(peer.hostKeySha256);
    expect(done.lastError).toContain(`not the confirmed ${confirmed}`);
    expect(peer.files.size).toBe(0);
  });

  test("posts a FHIR transaction Bundle and retries while the server answers 503", async () => {
    const peer = await startFhirPeer(503);
    ground.closeAfter(peer);
    const fixture = await createDeliveryFixture(db, tenantId, {
      type: "fhir-http",
      port: peer.port,
      path: "/fhir",
      secret: "token",
      settings: { ackTimeoutSeconds: 30, retryDelaysSeconds: [1] },
    });
    const id = await queue(fixture, "fhir");
    // The peer compiles the FHIR schema on its first request, which takes seconds.
    const { worker, offset } = newWorker();
    await worker.runOnce();
    expect(await row(id)).toMatchObject({
      status: "pending",
      lastError: `The FHIR server at 127.0.0.1:${peer.port} answered HTTP 503.`,
    });
    peer.mode = "ok";
    offset.ms = 2_000;
    await worker.runOnce();
    expect(await row(id)).toMatchObject({ status: "delivered", ack: "HTTP 200", attempts: 2 });
    expect(peer.invalid).toEqual([]);
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0]!.authorization).toBe("Bearer token");
  });
});

describe("DeliveryWorker.stop", () => {
  test("ends a send still waiting for its ACK and leaves the delivery to be retried", async () => {
    const peer = await mllpPeer("silent");
    const fixture = await createDeliveryFixture(db, tenantId, {
      type: "hl7-mllp",
      port: peer.port,
      settings: { ackTimeoutSeconds: 60 },
    });
    const id = await queue(fixture);
    const { worker } = newWorker({ pollIntervalMs: 10 });
    worker.start();
    const deadline = Date.now() + 10_000;
    while (peer.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(peer.received).toHaveLength(1);
    const started = Date.now();
    await worker.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await row(id)).toMatchObject({ status: "pending", attempts: 1 });
    expect((await row(id)).lastError).toBe(
      `The receiver at 127.0.0.1:${peer.port} closed the connection before acknowledging the message.`,
    );
  });
});

import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { createDeliveryFixture } from "../../test/peers/delivery-fixtures.js";
import { deliveryHarness } from "../../test/peers/delivery-harness.js";
import { startFhirPeer } from "../../test/peers/fhir-peer.js";
import type { MllpPeer } from "../../test/peers/mllp-peer.js";
import { startSftpPeer } from "../../test/peers/sftp-peer.js";
import type { Db } from "../db/index.js";
import { deliveries } from "../db/schema.js";

const FAST = { ackTimeoutSeconds: 5, retryDelaysSeconds: [1] };

const ground = deliveryHarness({ pollIntervalMs: 25 });
const { newWorker, mllpPeer, queue } = ground;
let db: Db;
let tenantId: string;
beforeAll(() => {
  ({ db, tenantId } = ground);
});

async function rows(ids: string[]) {
  const found = await db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.tenantId, tenantId), inArray(deliveries.id, ids)));
  return ids.map((id) => found.find((r) => r.id === id)!);
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const allDelivered = (ids: string[]) => async () => (await rows(ids)).every((r) => r.status === "delivered");
const controlIds = (peer: MllpPeer) => peer.received.map((m) => m.getSegment("MSH")?.getField(10).toString());

describe("delivery order per interface", () => {
  test("keeps the queue order through a receiver that answers AE, then goes down, then comes back", async () => {
    const first = await mllpPeer("AA");
    const port = first.port;
    const fixture = await createDeliveryFixture(db, tenantId, { type: "hl7-mllp", port, settings: FAST });
    const ids = [await queue(fixture)];
    const { worker, offset } = newWorker();
    expect(await worker.runOnce()).toBe(1);

    first.mode = "AE";
    for (let i = 0; i < 8; i++) ids.push(await queue(fixture));
    expect(await worker.runOnce()).toBe(1);
    expect(controlIds(first)).toHaveLength(2);
    await first.close();
    offset.ms = 2_000;
    expect(await worker.runOnce()).toBe(1);
    const [, waiting, ...behind] = await rows(ids);
    expect(waiting).toMatchObject({
      status: "pending",
      attempts: 2,
      lastError: `The receiver at 127.0.0.1:${port} refused the connection.`,
    });
    expect(behind.map((r) => [r.status, r.attempts])).toEqual(behind.map(() => ["pending", 0]));

    const back = await mllpPeer("AA", port);
    offset.ms = 4_000;
    expect(await worker.runOnce()).toBe(8);
    const done = await rows(ids);
    expect(done.map((r) => r.status)).toEqual(ids.map(() => "delivered"));
    const queued = done.map((r) => r.controlId);
    expect(controlIds(first)).toEqual([queued[0], queued[1]]);
    expect(controlIds(back)).toEqual(queued.slice(1));
  });

  test("keeps each interface's order with two API processes' workers sending while more is queued", async () => {
    const peerA = await mllpPeer("AA");
    const peerB = await mllpPeer("AA");
    const a = await createDeliveryFixture(db, tenantId, {
      type: "hl7-mllp",
      port: peerA.port,
      settings: FAST,
    });
    const b = await createDeliveryFixture(db, tenantId, {
      type: "hl7-mllp",
      port: peerB.port,
      settings: FAST,
    });
    // Two processes of two machines: neither takes the other's sends for a dead process's.
    newWorker({ instanceId: "host-a.test:101:boot-a" }).worker.start();
    newWorker({ instanceId: "host-b.test:202:boot-b" }).worker.start();
    const idsA: string[] = [];
    const idsB: string[] = [];
    for (let i = 0; i < 20; i++) {
      idsA.push(await queue(a));
      idsB.push(await queue(b));
    }
    await until(allDelivered([...idsA, ...idsB]), "every delivery");
    expect(controlIds(peerA)).toEqual((await rows(idsA)).map((r) => r.controlId));
    expect(controlIds(peerB)).toEqual((await rows(idsB)).map((r) => r.controlId));
  }, 120_000);
});

describe("independent interfaces", () => {
  test("a receiver that never answers holds up only its own interface", async () => {
    const silent = await mllpPeer("silent");
    const healthy = await mllpPeer("AA");
    const sftp = await startSftpPeer();
    ground.closeAfter(sftp);
    const fhir = await startFhirPeer("ok");
    ground.closeAfter(fhir);
    const stuck = await createDeliveryFixture(db, tenantId, {
      type: "hl7-mllp",
      port: silent.port,
      settings: { ackTimeoutSeconds: 600 },
    });
    const mllp = await createDeliveryFixture(db, tenantId, { type: "hl7-mllp", port: healthy.port });
    const files = await createDeliveryFixture(db, tenantId, {
      type: "sftp",
      port: sftp.port,
      username: sftp.username,
      secret: sftp.password,
      hostKeySha256: sftp.hostKeySha256,
      path: "/upload",
    });
    const http = await createDeliveryFixture(db, tenantId, {
      type: "fhir-http",
      port: fhir.port,
      path: "/fhir",
    });

    const { worker } = newWorker();
    worker.start();
    const stuckIds = [await queue(stuck), await queue(stuck)];
    await until(async () => silent.received.length === 1, "the silent receiver's first message");
    const others = [
      await queue(mllp),
      await queue(mllp),
      await queue(files, "sftp"),
      await queue(http, "fhir"),
    ];
    await until(allDelivered(others), "the other interfaces' deliveries");

    const [first, second] = await rows(stuckIds);
    expect(first).toMatchObject({ status: "sending", attempts: 1 });
    expect(second).toMatchObject({ status: "pending", attempts: 0 });
    expect(silent.received).toHaveLength(1);
    expect(healthy.received).toHaveLength(2);
    expect(sftp.files.size).toBe(1);
    expect(fhir.received).toHaveLength(1);
  }, 120_000);
});

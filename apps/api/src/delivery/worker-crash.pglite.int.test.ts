import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { eq, inArray } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, describe, expect, test } from "vitest";
import { createDeliveryFixture } from "../../test/peers/delivery-fixtures.js";
import { startMllpPeer, type MllpPeer } from "../../test/peers/mllp-peer.js";
import { createTestTenant } from "../../test/helpers.js";
import { openDatabase } from "../db/index.js";
import { deliveries } from "../db/schema.js";
import { enqueueDelivery } from "./outbox.js";
import { DeliveryWorker } from "./worker.js";

const API_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const dir = mkdtempSync(join(tmpdir(), "delivery-crash-"));
let peer: MllpPeer | undefined;

afterAll(async () => {
  await peer?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The delivery worker in a child process on the PGlite directory, as a server runs it. */
function startWorkerProcess(pgliteDir: string) {
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", "test/peers/delivery-worker-process.ts", pgliteDir],
    { cwd: API_ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<NodeJS.Signals | null>((r) => child.once("exit", (_code, signal) => r(signal)));
  return { child, exited, stderr: () => stderr };
}

describe("DeliveryWorker crash", () => {
  test("after kill -9 mid-send, a restarted worker takes its own stale send back at once and keeps the order", async () => {
    const crashDir = mkdtempSync(join(tmpdir(), "delivery-crash-order-"));
    // The third message is never acknowledged: the worker is killed while it waits.
    const orderPeer = await startMllpPeer("AA");
    orderPeer.decide = (index) => (index === 2 ? "silent" : "AA");
    const setup = await openDatabase({ pgliteDir: crashDir });
    let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
    try {
      const { tenantId } = await createTestTenant(setup.db);
      const fixture = await createDeliveryFixture(setup.db, tenantId, {
        type: "hl7-mllp",
        port: orderPeer.port,
        settings: { ackTimeoutSeconds: 120 },
      });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(
          await setup.db.transaction((tx) =>
            enqueueDelivery(tx, { ...fixture, tenantId, format: "hl7", userId: null }),
          ),
        );
      }
      await setup.close();

      const worker = startWorkerProcess(crashDir);
      await until(
        () => orderPeer.received.length === 3 || worker.child.exitCode !== null,
        60_000,
        "the third send",
      ).catch((e: unknown) => {
        worker.child.kill("SIGKILL");
        throw new Error(`${String(e)}\n${worker.stderr()}`);
      });
      worker.child.kill("SIGKILL");
      expect(await worker.exited).toBe("SIGKILL");

      database = await openDatabase({ pgliteDir: crashDir });
      const db = database.db;
      const read = async () => {
        const found = await db.select().from(deliveries).where(inArray(deliveries.id, ids));
        return ids.map((id) => found.find((r) => r.id === id)!);
      };
      const crashed = (await read())[2]!;
      expect(crashed).toMatchObject({ status: "sending", attempts: 1 });
      expect(crashed.claimedBy).toContain(`:${worker.child.pid}:`);
      const leaseEnd = crashed.nextAttemptAt!;
      expect(leaseEnd.getTime()).toBeGreaterThan(Date.now() + 60_000);

      const restarted = new DeliveryWorker(db, Fastify({ logger: false }).log, { pollIntervalMs: 50 });
      restarted.start();
      try {
        await until(
          async () => (await read()).every((r) => r.status === "delivered"),
          60_000,
          "every delivery",
        );
      } finally {
        await restarted.stop();
      }
      const done = await read();
      // Taken back on start, long before the dead process's lease would have ended.
      expect(done[2]!.deliveredAt!.getTime()).toBeLessThan(leaseEnd.getTime());
      expect(done[2]).toMatchObject({ attempts: 2, controlId: crashed.controlId });
      const queued = done.map((r) => r.controlId);
      const received = orderPeer.received.map((m) => m.getSegment("MSH")?.getField(10).toString());
      // At least once: the message in flight at the kill arrives twice, with the same MSH-10, in its place.
      expect(received).toEqual([queued[0], queued[1], queued[2], queued[2], queued[3], queued[4]]);
    } finally {
      await database?.close();
      await orderPeer.close();
      rmSync(crashDir, { recursive: true, force: true });
    }
  }, 180_000);

  test("loses nothing when the API process is killed while waiting for the ACK", async () => {
    peer = await startMllpPeer("silent");
    const setup = await openDatabase({ pgliteDir: dir });
    const { tenantId } = await createTestTenant(setup.db);
    const fixture = await createDeliveryFixture(setup.db, tenantId, { type: "hl7-mllp", port: peer.port });
    const id = await setup.db.transaction((tx) =>
      enqueueDelivery(tx, { ...fixture, tenantId, format: "hl7", userId: null }),
    );
    await setup.close();

    const child = spawn(
      process.execPath,
      ["--conditions=source", "--import", "tsx", "test/peers/delivery-worker-process.ts", dir],
      { cwd: API_ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<NodeJS.Signals | null>((r) =>
      child.once("exit", (_code, signal) => r(signal)),
    );
    await until(() => peer!.received.length === 1 || child.exitCode !== null, 60_000, "the first send").catch(
      (e: unknown) => {
        child.kill("SIGKILL");
        throw new Error(`${String(e)}\n${stderr}`);
      },
    );
    expect(child.exitCode).toBeNull();
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    const database = await openDatabase({ pgliteDir: dir });
    try {
      const [crashed] = await database.db.select().from(deliveries).where(eq(deliveries.id, id));
      expect(crashed).toMatchObject({ status: "sending", attempts: 1 });
      const sentControlId = peer.received[0]!.getSegment("MSH")?.getField(10).toString();
      expect(sentControlId).toBe(crashed!.controlId);

      peer.mode = "AA";
      const restarted = new DeliveryWorker(database.db, Fastify({ logger: false }).log, {
        now: () => new Date(Date.now() + 61_000),
      });
      expect(await restarted.runOnce()).toBe(1);
      await restarted.stop();
      const [done] = await database.db.select().from(deliveries).where(eq(deliveries.id, id));
      expect(done).toMatchObject({ status: "delivered", attempts: 2, controlId: sentControlId });
      expect(peer.received.map((m) => m.getSegment("MSH")?.getField(10).toString())).toEqual([
        sentControlId,
        sentControlId,
      ]);
    } finally {
      await database.close();
    }
  }, 120_000);
});

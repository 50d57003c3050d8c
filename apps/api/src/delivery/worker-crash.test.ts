import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
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

async function until(check: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("DeliveryWorker crash", () => {
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

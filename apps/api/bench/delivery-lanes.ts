/**
 * Delivery throughput of one interface, alone and with a receiver that never answers on another
 * interface of the same practice (the lanes of `src/delivery/worker.ts`). Both runs queue
 * BENCH_MESSAGES (default 200) HL7 messages to a real MLLP receiver on 127.0.0.1 that answers AA,
 * on a fresh PGlite database, and time the background worker until all are delivered.
 * Run: pnpm --filter @core-care/api exec tsx --conditions=source bench/delivery-lanes.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import Fastify from "fastify";
import { objectId } from "@core-care/survey-engine";
import { openDatabase, type Db } from "../src/db/index.js";
import { deliveries, tenants } from "../src/db/schema.js";
import { enqueueDelivery } from "../src/delivery/outbox.js";
import { DeliveryWorker } from "../src/delivery/worker.js";
import { installBuiltinSurveys } from "../src/services/builtin-surveys.js";
import { createDeliveryFixture } from "../test/peers/delivery-fixtures.js";
import { startMllpPeer } from "../test/peers/mllp-peer.js";

const messages = Number(process.env.BENCH_MESSAGES ?? 200);
const log = Fastify({ logger: false }).log;

async function run(db: Db, withSilentReceiver: boolean): Promise<number> {
  const tenantId = `bench-${objectId()}`;
  await db.insert(tenants).values({
    id: tenantId,
    name: "Bench practice",
    settings: { teleAwvEmail: false, alternateFalls: false },
  });
  await installBuiltinSurveys(db, tenantId);
  const healthy = await startMllpPeer("AA");
  const silent = await startMllpPeer("silent");
  const fixture = await createDeliveryFixture(db, tenantId, { type: "hl7-mllp", port: healthy.port });
  const worker = new DeliveryWorker(db, log, { pollIntervalMs: 20 });
  try {
    if (withSilentReceiver) {
      const stuck = await createDeliveryFixture(db, tenantId, {
        type: "hl7-mllp",
        port: silent.port,
        settings: { ackTimeoutSeconds: 600 },
      });
      await db.transaction((tx) => enqueueDelivery(tx, { ...stuck, tenantId, format: "hl7", userId: null }));
    }
    const ids: string[] = [];
    for (let i = 0; i < messages; i++) {
      ids.push(
        await db.transaction((tx) =>
          enqueueDelivery(tx, { ...fixture, tenantId, format: "hl7", userId: null }),
        ),
      );
    }
    const start = process.hrtime.bigint();
    worker.start();
    for (;;) {
      const rows = await db
        .select({ status: deliveries.status })
        .from(deliveries)
        .where(and(eq(deliveries.tenantId, tenantId), inArray(deliveries.id, ids)));
      if (rows.every((r) => r.status === "delivered")) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (healthy.received.length !== messages) throw new Error(`received ${healthy.received.length}`);
    return messages / seconds;
  } finally {
    await worker.stop();
    await healthy.close();
    await silent.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), "bench-delivery-lanes-"));
const database = await openDatabase({ pgliteDir: dir });
try {
  // Warm-up: the first run pays for compiling queries and opening connections.
  await run(database.db, false);
  const alone = await run(database.db, false);
  const withSilent = await run(database.db, true);
  console.log(`delivery lanes, ${messages} HL7 messages to one interface (PGlite)`);
  console.log(`alone                      ${alone.toFixed(0).padStart(6)} messages/s`);
  console.log(`beside a silent receiver   ${withSilent.toFixed(0).padStart(6)} messages/s`);
  console.log(`ratio                      ${(withSilent / alone).toFixed(2)}`);
} finally {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}

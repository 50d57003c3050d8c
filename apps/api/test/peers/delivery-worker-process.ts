/**
 * An API-side delivery worker in a process of its own, on a PGlite data directory, so a test can
 * kill it with SIGKILL in the middle of a delivery. Usage: tsx delivery-worker-process.ts <dir>
 * (the interface's own ACK timeout applies; the lease then runs long past the test).
 */
import Fastify from "fastify";
import { openDatabase } from "../../src/db/index.js";
import { DeliveryWorker } from "../../src/delivery/worker.js";

const dir = process.argv[2];
if (dir === undefined) throw new Error("usage: delivery-worker-process.ts <pglite-dir>");
const database = await openDatabase({ pgliteDir: dir });
const worker = new DeliveryWorker(database.db, Fastify({ logger: false }).log, {
  pollIntervalMs: 50,
  leaseMs: 60_000,
});
worker.start();
setInterval(() => undefined, 60_000);
process.stdout.write("ready\n");

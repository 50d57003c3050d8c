import Fastify from "fastify";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { Database, Db } from "../../src/db/index.js";
import { enqueueDelivery } from "../../src/delivery/outbox.js";
import { DeliveryWorker, type DeliveryWorkerOptions } from "../../src/delivery/worker.js";
import { createTestDatabase, createTestTenant } from "../helpers.js";
import { startMllpPeer } from "./mllp-peer.js";

/** What a result's delivery is queued for: its result, interface and location (see delivery-fixtures.ts). */
export interface QueuedFixture {
  resultId: string;
  interfaceId: string;
  locationId: string;
}

/** A peer a test starts, closed after it. */
interface Closable {
  close: () => Promise<void>;
}

/**
 * The delivery worker's integration tests' ground, set up once per file: a test database with one
 * practice (`db`, `tenantId`, readable once the file's tests run), workers and peers started by a test
 * and stopped after it, and a result's delivery queued as the outbox queues it.
 */
export function deliveryHarness(defaults: Partial<DeliveryWorkerOptions> = {}) {
  let database: Database | undefined;
  let tenant: string | undefined;
  const workers: DeliveryWorker[] = [];
  const peers: Closable[] = [];
  const log = Fastify({ logger: false }).log;

  beforeAll(async () => {
    database = await createTestDatabase();
    tenant = (await createTestTenant(database.db, { role: "user" })).tenantId;
  });
  // The workers first, so none is sending to a peer as it closes.
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await Promise.all(peers.splice(0).map((peer) => peer.close()));
  });
  afterAll(async () => {
    await database?.close();
  });

  const ready = () => {
    if (database === undefined || tenant === undefined)
      throw new Error("the delivery harness is not set up yet");
    return { db: database.db, tenantId: tenant };
  };

  return {
    get db(): Db {
      return ready().db;
    },
    get tenantId(): string {
      return ready().tenantId;
    },
    /** Closes `peer` after the test. */
    closeAfter: <T extends Closable>(peer: T): T => {
      peers.push(peer);
      return peer;
    },
    /** A worker whose clock runs `offset.ms` ahead of real time, stopped after the test. */
    newWorker: (options: Partial<DeliveryWorkerOptions> = {}) => {
      const offset = { ms: 0 };
      const worker = new DeliveryWorker(ready().db, log, {
        connectTimeoutMs: 2_000,
        now: () => new Date(Date.now() + offset.ms),
        ...defaults,
        ...options,
      });
      workers.push(worker);
      return { worker, offset };
    },
    /** An MLLP receiver answering as `mode` says, stopped after the test. */
    mllpPeer: async (mode: Parameters<typeof startMllpPeer>[0], port = 0) => {
      const peer = await startMllpPeer(mode, port);
      peers.push(peer);
      return peer;
    },
    /** Queues the fixture's result for its interface, as the outbox does when a result is submitted. */
    queue: async (fixture: QueuedFixture, format: "hl7" | "cda" | "fhir" | "sftp" = "hl7") => {
      const { db, tenantId } = ready();
      return db.transaction((tx) =>
        enqueueDelivery(tx, {
          tenantId,
          resultId: fixture.resultId,
          interfaceId: fixture.interfaceId,
          locationId: fixture.locationId,
          format,
          userId: null,
        }),
      );
    },
  };
}

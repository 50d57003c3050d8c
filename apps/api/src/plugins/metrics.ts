import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import fp from "fastify-plugin";
import { AggregatorRegistry, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/index.js";

declare module "fastify" {
  interface FastifyInstance {
    metrics: {
      registry: Registry;
      saveBatchSize: Histogram;
      /** The metrics text to answer a scrape with: this process's, or every worker's under WORKERS=n. */
      scrape(): Promise<string>;
    };
  }
}

/** IPC between a worker answering a scrape and the primary that gathers every worker's metrics. */
export const METRICS_REQUEST = "core-care:metrics-request";
export const METRICS_ANSWER = "core-care:metrics-answer";
const CLUSTER_SCRAPE_MS = 5_000;

/**
 * Prometheus metrics (prom-client) of one server process: HTTP requests by method, route (as
 * registered, never the raw URL, so no id or PHI becomes a label) and status with their latency, the
 * size of each survey-result save statement, the delivery queue per interface and how long a stalled
 * one has been held (read from the database at scrape time), the database pool, and Node's own process metrics.
 */
export default fp(
  async (app) => {
    const registry = new Registry();
    if (app.config.nodeEnv !== "test") collectDefaultMetrics({ register: registry });

    const requests = new Histogram({
      name: "http_request_duration_seconds",
      help: "HTTP requests by method, route and status, and how long they took",
      labelNames: ["method", "route", "status_code"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const saveBatchSize = new Histogram({
      name: "corecare_save_batch_size",
      help: "Survey-result saves written together in one statement",
      buckets: [1, 2, 5, 10, 20, 50, 100, 200],
      registers: [registry],
    });
    new Gauge({
      name: "corecare_delivery_queue_depth",
      help: "Deliveries waiting or being sent, per interface",
      labelNames: ["tenant", "interface"] as const,
      registers: [registry],
      // Read from the database, which every process shares: one process's answer is the fleet's.
      aggregator: "first",
      async collect() {
        this.reset();
        const rows = rowsOf<{ tenant_id: string; interface_id: string; depth: number }>(
          await app.db.execute(
            sql`select tenant_id, interface_id, count(*)::int as depth from deliveries
                where status in ('pending', 'sending') group by tenant_id, interface_id`,
          ),
        );
        for (const row of rows) this.set({ tenant: row.tenant_id, interface: row.interface_id }, row.depth);
      },
    });
    new Gauge({
      name: "corecare_delivery_queue_stalled_seconds",
      help: "How long a failed delivery has held its interface's queue, per interface held longer than DELIVERY_STALL_MINUTES",
      labelNames: ["tenant", "interface"] as const,
      registers: [registry],
      aggregator: "first",
      async collect() {
        this.reset();
        // Each queue's head failed delivery (the earliest by queue position) holds everything after it.
        const rows = rowsOf<{ tenant_id: string; interface_id: string; held: number }>(
          await app.db.execute(
            sql`select tenant_id, interface_id, held from (
                  select distinct on (tenant_id, interface_id) tenant_id, interface_id,
                    extract(epoch from now() - updated_at)::float8 as held
                  from deliveries where status = 'failed'
                  order by tenant_id, interface_id, queue_seq, id) heads
                where held > ${app.config.deliveryStallMinutes * 60}`,
          ),
        );
        for (const row of rows)
          this.set({ tenant: row.tenant_id, interface: row.interface_id }, Math.floor(row.held));
      },
    });
    new Gauge({
      name: "corecare_db_pool_connections",
      help: "Database pool connections by state (open, idle) and requests waiting for one",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        const { total, idle, waiting } = app.database.poolState();
        this.set({ state: "open" }, total);
        this.set({ state: "idle" }, idle);
        this.set({ state: "waiting" }, waiting);
      },
    });

    app.addHook("onResponse", async (request, reply) => {
      requests.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? "unmatched",
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });

    if (cluster.isWorker) {
      // The primary asks each worker for its registry when one of them is scraped (src/cluster.ts).
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([registry]);
    }

    const scrape = async (): Promise<string> => {
      if (!cluster.isWorker || process.send === undefined) return registry.metrics();
      const id = randomUUID();
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          process.off("message", onMessage);
          reject(new Error("the primary did not answer the metrics request"));
        }, CLUSTER_SCRAPE_MS);
        const onMessage = (message: { type?: string; id?: string; text?: string; error?: string }) => {
          if (message.type !== METRICS_ANSWER || message.id !== id) return;
          clearTimeout(timer);
          process.off("message", onMessage);
          if (message.text === undefined) reject(new Error(message.error ?? "no metrics"));
          else resolve(message.text);
        };
        process.on("message", onMessage);
        process.send?.({ type: METRICS_REQUEST, id });
      });
    };

    app.decorate("metrics", { registry, saveBatchSize, scrape });

    app.get(
      "/metrics",
      { schema: { summary: "Prometheus metrics of this process (every worker under WORKERS=n)" } },
      async (_request, reply) => reply.header("content-type", registry.contentType).send(await scrape()),
    );
  },
  { name: "metrics", dependencies: ["db"] },
);

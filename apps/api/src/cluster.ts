import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import { METRICS_ANSWER, METRICS_REQUEST } from "./plugins/metrics.js";
import type { Config } from "./config.js";
import { listeningUrl, startupBanner } from "./startup.js";

/** A worker that dies this soon after its start is not restarted again at once (a crash loop). */
const RESTART_DELAY_MS = 1_000;

const say = (message: string) =>
  process.stdout.write(
    `${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg: message })}\n`,
  );

/**
 * `WORKERS=n`: the primary process forks n servers sharing one port (the primary hands out the
 * connections), restarts one that dies, and on SIGTERM passes it on and exits once every server has
 * finished its work. Each server migrates and seeds under the database's start-up lock, so they may
 * start together.
 */
export function runPrimary(config: Config): void {
  let stopping = false;
  let bannerShown = false;
  const fork = () => cluster.fork();
  // A scrape reaches one worker; it asks here for every worker's metrics, summed (plugins/metrics.ts).
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker: Worker, message: { type?: string; id?: string }) => {
    if (message.type !== METRICS_REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: METRICS_ANSWER, id: message.id, text }),
      (err: unknown) => worker.send({ type: METRICS_ANSWER, id: message.id, error: String(err) }),
    );
  });

  cluster.on("listening", (_worker, address) => {
    if (bannerShown) return;
    bannerShown = true;
    say(`Core Care at ${config.publicUrl} (${config.workers} workers)`);
    process.stdout.write(startupBanner(config, listeningUrl(config.host, address.port)));
  });
  cluster.on("exit", (worker: Worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        say("stopped");
        process.exit(0);
      }
      return;
    }
    say(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(fork, RESTART_DELAY_MS);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      say(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} workers`);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    });
  }
  for (let i = 0; i < config.workers; i++) fork();
}

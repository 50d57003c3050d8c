import cluster from "node:cluster";
import type { AddressInfo } from "node:net";
import { buildApp } from "./app.js";
import { loadConfig } from "./config.js";
import { runPrimary } from "./cluster.js";
import { gracefulShutdown, listeningUrl, startupBanner } from "./startup.js";

const config = loadConfig();

if (config.workers > 1 && cluster.isPrimary) {
  runPrimary(config);
} else {
  const app = await buildApp(config);
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void gracefulShutdown(app, signal).then((code) => process.exit(code));
    });
  }
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as AddressInfo;
  app.log.info(`Core Care at ${config.publicUrl} (${app.database.kind}, pid ${process.pid})`);
  // With several workers the primary prints the banner, once.
  if (cluster.isPrimary) process.stdout.write(startupBanner(config, listeningUrl(config.host, port)));
}

import type { FastifyInstance } from "fastify";
import { DEFAULT_DEMO_PASSWORD, type Config } from "./config.js";

/**
 * What a development start prints beside the log: where the portal is and the demo sign-in. Beside the
 * log, not through it, because the log masks e-mail addresses and these are the demo's. Nothing in
 * test or production, where no demo users exist.
 */
export function startupBanner(config: Config, url: string): string {
  if (config.nodeEnv !== "development") return "";
  const password =
    config.demoPassword === DEFAULT_DEMO_PASSWORD
      ? `the password ${DEFAULT_DEMO_PASSWORD}`
      : "the password in DEMO_PASSWORD";
  return (
    `\nCore Care is running at ${url}\n` +
    `Sign in as staff@demo.test (or admin@demo.test, sysadmin@demo.test) with ${password}\n\n`
  );
}

/** The address a listening app answers on, as a URL to open (a wildcard host as 127.0.0.1). */
export function listeningUrl(host: string, port: number): string {
  const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`;
}

/**
 * Stops the app for a SIGTERM: it answers not ready at once, takes no new connection, finishes the
 * requests in flight (saves are answered only after their commit) and the delivery worker's current
 * sends, then closes the database. Past `shutdownTimeoutSeconds` it exits anyway.
 */
export async function gracefulShutdown(app: FastifyInstance, signal: string): Promise<number> {
  app.draining = true;
  app.log.info(`${signal}: stopping; finishing the requests and deliveries in flight`);
  const deadline = setTimeout(() => {
    app.log.error(`still stopping after ${app.config.shutdownTimeoutSeconds} s; exiting now`);
    process.exit(1);
  }, app.config.shutdownTimeoutSeconds * 1000);
  deadline.unref();
  // A connection that finishes its last answer after the listener closed would otherwise stay open
  // for the keep-alive timeout; answers now close theirs (plugins/drain.ts), and idle ones go here.
  const reaper = setInterval(() => app.server.closeIdleConnections(), 500);
  reaper.unref();
  try {
    await app.close();
    app.log.info("stopped");
    return 0;
  } catch (err) {
    app.log.error({ err }, "stopping failed");
    return 1;
  } finally {
    clearInterval(reaper);
  }
}

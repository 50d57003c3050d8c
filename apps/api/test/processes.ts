import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { testDatabaseKind } from "./helpers.js";

const API_ROOT = join(import.meta.dirname, "..");

/** A server running as a process of its own, as `pnpm start` runs it. */
export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the base URL once it listens; rejects if it exits first. */
  listening: Promise<string>;
  /** Resolves with the exit code (or the signal's name) once it has exited. */
  exited: Promise<number | string>;
  /** Sends a signal to the whole process group (pnpm and the server under it). */
  signal(name: NodeJS.Signals): void;
}

export interface StartOptions {
  env: Record<string, string>;
  /** `pnpm start` (the first-start promise) or the server run directly under the TypeScript loader. */
  via?: "pnpm" | "node";
}

/** Starts the API server on 127.0.0.1, port 0, with exactly the given environment on top of PATH. */
export function startServer({ env, via = "node" }: StartOptions): ServerProcess {
  const [command, args] =
    via === "pnpm"
      ? ["pnpm", ["start"]]
      : [process.execPath, ["--conditions=source", "--import", "tsx", "src/server.ts"]];
  const child = spawn(command, args, {
    cwd: API_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    // Only what a shell would hand `pnpm start`: none of the test runner's own variables (NODE_ENV=test).
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith("COREPACK_"))),
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? tmpdir(),
      HOST: "127.0.0.1",
      PORT: "0",
      ...env,
    },
  });
  let text = "";
  const exited = new Promise<number | string>((resolve) => {
    child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
  });
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match?.[1] !== undefined) resolve(match[1]);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${text}`)));
  });
  // Awaited by whoever needs it; an early exit must not count as an unhandled rejection meanwhile.
  listening.catch(() => undefined);
  return {
    child,
    output: () => text,
    listening,
    exited,
    signal(name) {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, name);
        } catch {
          // already gone
        }
      }
    },
  };
}

/** Stops a server process with SIGTERM (SIGKILL after `graceMs`) and answers how it exited. */
export async function stopServer(server: ServerProcess, graceMs = 60_000): Promise<number | string> {
  server.signal("SIGTERM");
  const timer = setTimeout(() => server.signal("SIGKILL"), graceMs);
  try {
    return await server.exited;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A fresh place for a server process to keep its data: a DATA_DIR, and on the 'postgres' project a new
 * empty database on the server (DATABASE_URL). `drop()` removes both.
 */
export async function freshServerStorage(): Promise<{
  env: Record<string, string>;
  dataDir: string;
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}> {
  const kind = testDatabaseKind();
  const dataDir = mkdtempSync(join(tmpdir(), "core-care-process-"));
  if (kind === "pglite") {
    return {
      env: { DATA_DIR: dataDir },
      dataDir,
      databaseUrl: undefined,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const serverUrl = inject("databaseUrl");
  const name = `p_${process.pid}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    dataDir,
    databaseUrl: url.toString(),
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Busy loops on every core, in processes of their own; `stop()` ends them. */
export function cpuHog(cores: number): { stop(): void } {
  const hogs = Array.from({ length: cores }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
  );
  return {
    stop() {
      for (const hog of hogs) hog.kill("SIGKILL");
    },
  };
}

/** Polls `url` until it answers `status` (default 200), up to `timeoutMs`. */
export async function waitForStatus(url: string, status = 200, timeoutMs = 120_000): Promise<Response> {
  const until = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < until) {
    try {
      const response = await fetch(url);
      if (response.status === status) return response;
      last = `status ${response.status}`;
    } catch (err) {
      last = String(err);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer ${status} in time (${last})`);
}

/** Signs in over HTTP; answers the headers a signed-in browser sends (cookie and CSRF header). */
export async function signIn(base: string, email: string, password: string): Promise<Record<string, string>> {
  const response = await fetch(`${base}/api/auth/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email}: ${response.status} ${await response.text()}`);
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return { cookie, "x-requested-with": "XMLHttpRequest", "content-type": "application/json" };
}

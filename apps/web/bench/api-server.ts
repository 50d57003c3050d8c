// The real API server for the web benchmarks: started as `pnpm start` starts it (embedded PostgreSQL,
// demo data seeded), serving a given web build, on a free port of 127.0.0.1.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const apiRoot = resolve(import.meta.dirname, "../../api");
export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? "core-care-demo-password";

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

export interface ApiServer {
  origin: string;
  /** The server process's id (its memory is read from /proc). */
  pid: number;
  dataDir: string;
  /** Signs in and answers the session cookie (`sid=…`). */
  login(email: string): Promise<string>;
  /** A JSON call with a session cookie; throws on a status other than `expect`. */
  call<T>(cookie: string, method: string, path: string, body?: unknown, expect?: number): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Starts the API on `webDist` with a fresh data folder (`prepare` may fill it first, e.g. with results)
 * and waits until it answers.
 */
export async function startApiServer(
  webDist: string,
  options: { prepare?: (dataDir: string) => Promise<void>; env?: Record<string, string> } = {},
): Promise<ApiServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "core-care-bench-api-"));
  await options.prepare?.(dataDir);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=source", "src/server.ts"],
    {
      cwd: apiRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        WEB_DIST: webDist,
        LOG_LEVEL: "warn",
        RATE_LIMIT_PER_MINUTE: "100000",
        DEMO_PASSWORD,
        ...options.env,
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const exited = new Promise<never>((_, fail) =>
    child.once("exit", (code) => fail(new Error(`the API server exited (${code})`))),
  );
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/api/config`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the API server did not start in 180 s");
    await Promise.race([new Promise((done) => setTimeout(done, 250)), exited]);
  }

  const call = async <T>(cookie: string, method: string, path: string, body?: unknown, expect = 200) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: {
        cookie,
        "x-requested-with": "XMLHttpRequest",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status !== expect) {
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    }
    return (response.status === 204 ? null : await response.json()) as T;
  };

  return {
    origin,
    pid: child.pid ?? 0,
    dataDir,
    call,
    async login(email) {
      const response = await fetch(`${origin}/api/auth/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
        body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      });
      const cookie = /sid=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0];
      if (!response.ok || cookie === undefined) throw new Error(`sign-in of ${email}: ${response.status}`);
      return cookie;
    },
    async stop() {
      const gone = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await Promise.race([gone, new Promise((done) => setTimeout(done, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The API as production runs it, for the benchmarks: `node dist/server.js` (as the Docker image and the
 * README say) in a process of its own, on a free port of 127.0.0.1, with a database of its own, so that
 * its CPU and event loop are its own and the load generator's work is not counted in its latencies.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

const API_ROOT = join(import.meta.dirname, "..");
const REPO_ROOT = join(API_ROOT, "..", "..");

/** The newest modification time under `dir`, in ms (0 when it is missing). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/**
 * Builds the API and the packages it imports from the sources, unless every build is newer than its
 * sources already: the benchmark measures the code as it is.
 */
export function ensureBuilt(): void {
  const parts = [
    API_ROOT,
    join(REPO_ROOT, "packages", "schema"),
    join(REPO_ROOT, "packages", "survey-engine"),
  ];
  const stale = parts.some((root) => newest(join(root, "src")) > newest(join(root, "dist")));
  if (!stale && existsSync(join(API_ROOT, "dist", "server.js"))) return;
  execFileSync("pnpm", ["--filter", "@core-care/api...", "run", "build"], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** A port of 127.0.0.1 nothing listens on (asked of the system, then released for the server). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A database of the benchmark's own: a new PostgreSQL database, or a PGlite folder. */
export interface BenchDatabase {
  kind: "pglite" | "postgres";
  /** The server's environment that names it. */
  env: Record<string, string>;
  /** Where the benchmark opens it itself (`openDatabase`), while no server holds it. */
  open: { databaseUrl: string } | { pgliteDir: string };
  drop(): Promise<void>;
}

export async function benchDatabase(kind: "pglite" | "postgres"): Promise<BenchDatabase> {
  if (kind === "pglite") {
    const dataDir = mkdtempSync(join(tmpdir(), "core-care-bench-data-"));
    return {
      kind,
      env: { DATA_DIR: dataDir },
      open: { pgliteDir: join(dataDir, "pglite") },
      async drop() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = process.env.DATABASE_URL ?? "";
  const name = `bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), "core-care-bench-data-"));
  return {
    kind,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    open: { databaseUrl: url.toString() },
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export interface ApiProcess {
  base: string;
  pid: number;
  child: ChildProcess;
  /** SIGTERM, then waits for the graceful exit (a CPU profile is written as the process exits). */
  stop(): Promise<number | string>;
}

export interface StartApiOptions {
  database: BenchDatabase;
  /** Variables on top of the production set below. */
  env?: Record<string, string>;
  /** Options of node itself, such as `--cpu-prof`. */
  nodeArgs?: string[];
  /** Another script than dist/server.js (a baseline server), with its node options. */
  script?: string[];
}

/** The production environment the benchmarks run the API with; `env` adds to it or overrides it. */
export function productionEnv(port: number, database: BenchDatabase): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? tmpdir(),
    PORT: String(port),
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    SEED_ON_START: "false",
    DEMO_RECEIVER: "false",
    TRUST_PROXY: "true",
    LOG_LEVEL: "warn",
    WEB_DIST: join(database.env.DATA_DIR ?? tmpdir(), "none"),
    ...database.env,
  };
}

/** Starts the server and resolves once `/readyz` answers 200; rejects if it exits first. */
export async function startApi(options: StartApiOptions): Promise<ApiProcess> {
  const port = await freePort();
  const args = [...(options.nodeArgs ?? []), ...(options.script ?? [join("dist", "server.js")])];
  const child = spawn(process.execPath, args, {
    cwd: API_ROOT,
    env: { ...productionEnv(port, options.database), ...options.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
    process.stderr.write(chunk);
  });
  const exited = new Promise<number | string>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  let gone: number | string | undefined;
  void exited.then((code) => (gone = code));
  while (Date.now() < deadline && gone === undefined) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) {
        return {
          base,
          pid: child.pid ?? 0,
          child,
          async stop() {
            if (gone === undefined) child.kill("SIGTERM");
            return exited;
          },
        };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (gone === undefined) child.kill("SIGKILL");
  throw new Error(`the server (${args.join(" ")}) did not start: ${gone ?? "timed out"}\n${errors}`);
}

/**
 * CPU seconds (user + system) a process has used so far, all its threads, from /proc; with `mainThread`,
 * its main thread's alone (the JavaScript of a server; PGlite and libuv's pool run on others).
 */
export function cpuSecondsOf(pid: number, mainThread = false): number {
  try {
    const path = mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`;
    const fields = readFileSync(path, "utf8").split(") ")[1]?.split(" ") ?? [];
    // utime and stime, the 14th and 15th fields of the line (12th and 13th after the name).
    return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
  } catch {
    return 0;
  }
}

/**
 * Load benchmark of signed-in survey-result saves (POST /api/surveyresults) with sessions, tenancy,
 * validation and audit switched on, as production runs them: `node dist/server.js` in a process of its
 * own (bench/api-process.ts) with a database of its own, driven by autocannon from this process. Beside
 * it, in the same run and on the same database, two bare baselines, each a process of its own too
 * (bench/bare-server.ts): Fastify + zod + a JSONB insert of the same row committed alone, and the same
 * with the app's grouping (saves arriving together go in one multi-row INSERT and one commit, through the
 * app's own Batcher with its settings), so that the ratio to the second is the app's overhead and not
 * its batching. Each case's rows written are counted against the saves answered 2xx, and its
 * server's CPU time is divided by its saves. Then the app once more under `--cpu-prof`: the functions
 * and packages where a save's CPU time goes, per save. Loopback only, BENCH_DURATION seconds per case.
 *
 *   pnpm --filter @core-care/api bench                    # PGlite
 *   DATABASE_URL=postgres://… pnpm --filter @core-care/api bench   # PGlite and the PostgreSQL server
 *
 * BENCH_DATABASES=postgres (or pglite) for one of them; BENCH_PROFILE=0 skips the profile;
 * BENCH_PROFILE_KEEP=<folder> keeps it (save-<database>.cpuprofile, for Chrome's DevTools).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { objectId, CORE_CARE_WELLNESS_EXAM_ID } from "@core-care/survey-engine";
import { openDatabase } from "../src/db/index.js";
import { patients, surveyResults, tenants, userTenants, users } from "../src/db/schema.js";
import { installBuiltinSurveys } from "../src/services/builtin-surveys.js";
import { hashPassword } from "../src/services/passwords.js";
import {
  benchDatabase,
  cpuSecondsOf,
  ensureBuilt,
  startApi,
  type ApiProcess,
  type BenchDatabase,
} from "./api-process.js";
import { profileWindow } from "./cpu-profile.js";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const PROFILE = process.env.BENCH_PROFILE !== "0";
const PASSWORD = "bench passphrase: cobalt heron 2291";
/** Puts a fresh client request id into every request body (a file: the generator is a worker thread). */
const SETUP_REQUEST = fileURLToPath(new URL("save-request.cjs", import.meta.url));
const BARE_SERVER = ["--conditions=source", "--import", "tsx", join("bench", "bare-server.ts")];
const ANSWERS = {
  functional: { eating: "0", bathroom: "0" },
  pain: { hadPain: "1" },
  social: { exerciseYesNo: "yes" },
};
/** Saves the load generator can leave unanswered as it stops: one a connection, at the end of each run. */
const IN_FLIGHT = CONNECTIONS * (WARMUP > 0 ? 2 : 1);
const TARGETS = {
  alone: "bare fastify + zod + insert",
  grouped: "bare fastify + zod + grouped insert",
  app: "core-care (node dist/server.js)",
} as const;

interface Row {
  database: string;
  target: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** The server process's CPU time (user + system) over the measured run, per save answered in it. */
  cpuMsPerSave: number;
  /** Saves answered 2xx to the load generator, the warm-up's included. */
  answered: number;
  /**
   * Rows the case added to survey_results: one for each save answered 2xx, and at most one more on each
   * connection at the end of each run (warm-up and measured) for a save the server committed as the
   * clock stopped but whose answer came too late.
   */
  rowsWritten: number;
}

interface Loaded {
  stats: Omit<Row, "database" | "target" | "answered" | "rowsWritten" | "cpuMsPerSave">;
  /** The measured run, on the monotonic clock in microseconds (a CPU profile's clock). */
  window: [number, number];
  /** Saves answered 2xx in the measured run. */
  saves: number;
  /** Saves answered 2xx, the warm-up's included. */
  answered: number;
  cpuSeconds: number;
  /** The server's main thread's alone. */
  mainThreadCpuSeconds: number;
}

const now = () => Number(process.hrtime.bigint() / 1000n);

/** Loads one route for DURATION seconds after WARMUP seconds unmeasured; autocannon in a worker thread. */
async function load(server: ApiProcess, path: string, headers: Record<string, string>, body: object) {
  const run = (duration: number) =>
    autocannon({
      url: `${server.base}${path}`,
      connections: CONNECTIONS,
      duration,
      workers: 1,
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      requests: [{ method: "POST", body: JSON.stringify(body), setupRequest: SETUP_REQUEST }],
    });
  // The same load first while the JIT compiles the hot paths and caches fill.
  const warm = WARMUP > 0 ? (await run(WARMUP))["2xx"] : 0;
  const cpuBefore = cpuSecondsOf(server.pid);
  const mainBefore = cpuSecondsOf(server.pid, true);
  const from = now();
  const result = await run(DURATION);
  const to = now();
  const cpuSeconds = cpuSecondsOf(server.pid) - cpuBefore;
  const mainThreadCpuSeconds = cpuSecondsOf(server.pid, true) - mainBefore;
  // Let requests still in flight when the clock stopped finish before the counts are read.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return {
    stats: {
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    },
    window: [from, to],
    saves: result["2xx"],
    answered: warm + result["2xx"],
    cpuSeconds,
    mainThreadCpuSeconds,
  } satisfies Loaded;
}

const saveBody = (patientId: string) => ({
  clientRequestId: "CLIENT_REQUEST_ID",
  surveyId: CORE_CARE_WELLNESS_EXAM_ID,
  patientId,
  isSubmitted: false,
  answers: ANSWERS,
});

/** The rows of survey_results, read while no server holds the database (PGlite has one process). */
async function countRows(database: BenchDatabase): Promise<number> {
  const opened = await openDatabase(database.open);
  try {
    const [count] = await opened.db.select({ n: sql<number>`count(*)::int` }).from(surveyResults);
    return count?.n ?? 0;
  } finally {
    await opened.close();
  }
}

async function seed(database: BenchDatabase) {
  const tenantId = "bench";
  const patientId = objectId();
  const opened = await openDatabase(database.open);
  try {
    const { db } = opened;
    const userId = objectId();
    await db
      .insert(tenants)
      .values({ id: tenantId, name: "Bench", settings: { teleAwvEmail: false, alternateFalls: false } });
    await installBuiltinSurveys(db, tenantId);
    await db.insert(users).values({
      id: userId,
      email: "bench@example.test",
      firstName: "B",
      lastName: "Ench",
      passwordHash: await hashPassword(PASSWORD),
    });
    await db.insert(userTenants).values({ tenantId, userId, roles: 1 });
    await db.insert(patients).values({
      tenantId,
      id: patientId,
      mrn: "B-1",
      firstName: "P",
      lastName: "Atient",
      dob: "1950-01-01",
      sex: "F",
    });
  } finally {
    await opened.close();
  }
  return { tenantId, patientId };
}

/** Signs the bench user in: the session cookie and headers of every save. */
async function signIn(base: string): Promise<Record<string, string>> {
  const headers = { "x-requested-with": "XMLHttpRequest", "x-forwarded-proto": "https" };
  const res = await fetch(`${base}/api/auth/sessions`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ email: "bench@example.test", password: PASSWORD }),
  });
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  if (res.status !== 200 || cookie === "") throw new Error(`bench sign-in failed: ${res.status}`);
  return { cookie, ...headers };
}

const appEnv = { RATE_LIMIT_PER_MINUTE: "10000000" };

/** One case: its server started, loaded, its answers and rows counted, stopped. */
async function runCase(
  database: BenchDatabase,
  target: string,
  patientId: string,
  grouped: boolean | "app",
  nodeArgs: string[] = [],
): Promise<{ row: Row; loaded: Loaded }> {
  const before = await countRows(database);
  const server = await startApi(
    grouped === "app"
      ? { database, env: appEnv, nodeArgs }
      : {
          database,
          script: BARE_SERVER,
          env: { BENCH_TENANT: "bench", BENCH_GROUPED: grouped ? "1" : "0" },
        },
  );
  let loaded: Loaded;
  try {
    const headers = grouped === "app" ? await signIn(server.base) : {};
    loaded = await load(
      server,
      grouped === "app" ? "/api/surveyresults" : "/save",
      headers,
      saveBody(patientId),
    );
  } finally {
    await server.stop();
  }
  const rowsWritten = (await countRows(database)) - before;
  return {
    row: {
      database: database.kind,
      target,
      ...loaded.stats,
      cpuMsPerSave: Number(((loaded.cpuSeconds * 1000) / Math.max(1, loaded.saves)).toFixed(3)),
      answered: loaded.answered,
      rowsWritten,
    },
    loaded,
  };
}

interface ProfileReport {
  database: string;
  saves: number;
  mainThreadMicrosecondsPerSave: number;
  functions: { name: string; usPerSave: number; percent: number }[];
  areas: { name: string; usPerSave: number; percent: number }[];
}

/** The app once more under `--cpu-prof`: where a save's CPU time goes, per save, in the measured run. */
async function profileCase(database: BenchDatabase, patientId: string): Promise<ProfileReport> {
  const dir = mkdtempSync(join(tmpdir(), "core-care-bench-profile-"));
  try {
    const { loaded } = await runCase(database, `${TARGETS.app} --cpu-prof`, patientId, "app", [
      "--cpu-prof",
      `--cpu-prof-dir=${dir}`,
      "--cpu-prof-interval=250",
    ]);
    // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: the main thread is thread 0 (PGlite's is another).
    const files = readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"));
    const file = files.find((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name)) ?? files[0];
    if (file === undefined) throw new Error("the server wrote no CPU profile");
    const keep = process.env.BENCH_PROFILE_KEEP;
    if (keep !== undefined && keep !== "") {
      mkdirSync(keep, { recursive: true });
      copyFileSync(join(dir, file), join(keep, `save-${database.kind}.cpuprofile`));
    }
    const window = profileWindow(join(dir, file), loaded.window[0], loaded.window[1]);
    // The samples are taken on the wall clock, and on a busy machine the thread also waits for a core
    // between two of them: each function's share of the samples is kept, and the main thread's CPU time
    // per save (from /proc) is divided by those shares.
    const cpuPerSave = (loaded.mainThreadCpuSeconds * 1e6) / Math.max(1, loaded.saves);
    const per = (list: { name: string; microseconds: number }[], count: number) =>
      list.slice(0, count).map(({ name, microseconds }) => {
        const share = microseconds / Math.max(1, window.busy);
        return {
          name,
          usPerSave: Number((share * cpuPerSave).toFixed(1)),
          percent: Number((100 * share).toFixed(1)),
        };
      });
    return {
      database: database.kind,
      saves: loaded.saves,
      mainThreadMicrosecondsPerSave: Math.round(cpuPerSave),
      functions: per(window.byFunction, 25),
      areas: per(window.byArea, 20),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

ensureBuilt();
const kinds: ("pglite" | "postgres")[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
// BENCH_DATABASES=postgres (or pglite) measures one of them only.
const only = process.env.BENCH_DATABASES;
if (only !== undefined && only !== "")
  kinds.splice(0, kinds.length, ...kinds.filter((k) => only.includes(k)));
const rows: Row[] = [];
const profiles: ProfileReport[] = [];
const loads: Record<string, string> = {};
for (const kind of kinds) {
  const database = await benchDatabase(kind);
  try {
    const { patientId } = await seed(database);
    rows.push((await runCase(database, TARGETS.alone, patientId, false)).row);
    rows.push((await runCase(database, TARGETS.grouped, patientId, true)).row);
    rows.push((await runCase(database, TARGETS.app, patientId, "app")).row);
    loads[kind] = loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
    if (PROFILE) profiles.push(await profileCase(database, patientId));
  } finally {
    await database.drop();
  }
}

console.log(
  `\nPOST survey result, ${CONNECTIONS} connections, ${DURATION} s each, loopback; each server a process of its own\n`,
);
console.table(rows);
console.log(
  "answered: the saves answered 2xx to the load generator in the case, its warm-up's included; " +
    "rowsWritten: the rows the case added, as many or at most one a connection and run more (committed as " +
    "the clock stopped, answered too late); cpuMsPerSave: the server process's CPU time (all its threads, PGlite's " +
    "included) in the measured run over the saves answered in it.",
);
for (const kind of kinds) {
  const of = (target: string) => rows.find((r) => r.database === kind && r.target === target);
  const alone = of(TARGETS.alone);
  const grouped = of(TARGETS.grouped);
  const full = of(TARGETS.app);
  if (alone === undefined || grouped === undefined || full === undefined) continue;
  const percent = (base: Row) =>
    Math.round((100 * full.requestsPerSecond) / Math.max(1, base.requestsPerSecond));
  const cpu = (base: Row) => (full.cpuMsPerSave / Math.max(0.001, base.cpuMsPerSave)).toFixed(2);
  const lost = rows
    .filter(
      (r) => r.database === kind && (r.rowsWritten < r.answered || r.rowsWritten > r.answered + IN_FLIGHT),
    )
    .map((r) => r.target);
  console.log(
    `${kind}: core-care at ${percent(grouped)}% of the grouped baseline's saves/s (target: 70%), ` +
      `${percent(alone)}% of the one-row-a-commit baseline's; CPU per save ${cpu(grouped)}x the grouped ` +
      `baseline's, ${cpu(alone)}x the other's; p99 ${full.p99Ms} ms against ${grouped.p99Ms} and ` +
      `${alone.p99Ms} ms (target < 20 ms); load ${loads[kind]}; ` +
      (lost.length === 0
        ? "every save answered was written, in every case"
        : `ROWS WRITTEN BELOW THE SAVES ANSWERED (or over them by more than the connections): ${lost.join(", ")}`),
  );
}
for (const profile of profiles) {
  console.log(
    `\n${profile.database}: CPU profile of the API process (node --cpu-prof), ${profile.saves} saves in the ` +
      `measured run, ${profile.mainThreadMicrosecondsPerSave} µs of its main thread's CPU time per save; the ` +
      `self time per save of the functions and the packages that spend most (their share of the main ` +
      `thread's samples)`,
  );
  console.table(profile.functions);
  console.table(profile.areas);
}
mkdirSync(".reports", { recursive: true });
writeFileSync(
  join(".reports", "bench.json"),
  JSON.stringify({ connections: CONNECTIONS, durationSeconds: DURATION, rows, profiles }, null, 2),
);

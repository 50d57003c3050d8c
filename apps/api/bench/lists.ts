/**
 * Lists, search and batch upload at clinic scale on the PostgreSQL server (DATABASE_URL): builds its own
 * data set in a fresh database (BENCH_RESULTS results of one practice, 1% of them today and the rest
 * over 400 days, BENCH_PATIENTS patients, plus a second practice), starts the API as its own process,
 * and measures each list at 1 and 20 clients (autocannon, signed in) beside the same statements
 * replayed on a plain `pg` pool by as many clients, prepared once per connection as the API prepares
 * its own (a list on connections set as the API's list reads are, a search on connections set as the
 * API's searches are), as the API sends them once warm (a list known
 * to be longer than the capped count is not counted again): the floor. Then a streamed batch upload of
 * BENCH_BATCH_ROWS rows beside plain multi-row INSERTs of the same rows, and the API process's peak
 * memory (RSS) throughout.
 *
 * The cases added with the deep page numbers (the deepest page number allowed, every sort of the
 * patients in both orders, the survey filter, a partial typeahead, an MRN search) have as their floor
 * the best index-backed statement written by hand, not the API's own SQL replayed. Last, "fairness":
 * the other practice's first page p99 alone and while one session of the first practice loops on its
 * deepest page at 20 clients, as a ratio, on an API with the default per-practice cap on list reads
 * (LIST_TENANT_CONCURRENCY; the cases before it run with the cap raised to their 20 clients, so they
 * measure a list's cost and not its practice's queue).
 *
 *   DATABASE_URL=postgres://… pnpm --filter @core-care/api exec tsx --conditions=source bench/lists.ts
 *   BENCH_SIZE=small …          # 20,000 results, 2,000 patients, 5,000 batch rows (CI)
 *
 * Sizes: BENCH_RESULTS (default 1,000,000), BENCH_PATIENTS (50,000), BENCH_BATCH_ROWS (100,000);
 * BENCH_LIST_SECONDS per case (default 10); BENCH_PORT for the API (default 4462); BENCH_ONLY=<text>
 * for the cases whose name holds it (or one of several, "a|b"); BENCH_KEEP_DATABASE=1 builds the data
 * set, keeps it and stops; BENCH_API_NODE_ARGS for the API's node (a CPU profile:
 * "--cpu-prof --cpu-prof-dir=<folder>").
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { CORE_CARE_WELLNESS_EXAM_ID, objectId } from "@core-care/survey-engine";
import { PAGE_SIZE, PatientListQuerySchema, SurveyResultListQuerySchema } from "@core-care/schema";
import {
  LIST_READ_OPTIONS,
  SEARCH_READ_OPTIONS,
  executeOn,
  openDatabase,
  type Execute,
} from "../src/db/index.js";
import * as schema from "../src/db/schema.js";
import { installBuiltinSurveys } from "../src/services/builtin-surveys.js";
import { hashPassword } from "../src/services/passwords.js";
import { encodeCursor, lastPageNumber } from "../src/services/keyset.js";
import { listResultsJson } from "../src/services/survey-results.js";
import { listPatients } from "../src/services/patients.js";
import { CappedLists } from "../src/services/capped-lists.js";

const small = process.env.BENCH_SIZE === "small";
const RESULTS = Number(process.env.BENCH_RESULTS ?? (small ? 20_000 : 1_000_000));
const PATIENTS = Number(process.env.BENCH_PATIENTS ?? (small ? 2_000 : 50_000));
const BATCH_ROWS = Number(process.env.BENCH_BATCH_ROWS ?? (small ? 5_000 : 100_000));
const SECONDS = Number(process.env.BENCH_LIST_SECONDS ?? (small ? 3 : 10));
const PORT = Number(process.env.BENCH_PORT ?? 4462);
const PASSWORD = "bench passphrase: cobalt heron 2291";
const TENANT = "bench";
const CORES = availableParallelism();
const OTHER = "bench-other";
const OTHER_EMAIL = "bench-other@example.test";

const serverUrl = process.env.DATABASE_URL;
if (serverUrl === undefined || serverUrl === "") {
  console.log(
    "bench/lists.ts: set DATABASE_URL to a PostgreSQL server (it makes and drops its own database)",
  );
  process.exit(0);
}
// The API runs from its build (below) while the floor replays statements built from the sources: the
// two must be the same code, so the API and the packages it imports are built from the sources first.
execFileSync("pnpm", ["--filter", "@core-care/api...", "run", "build"], {
  stdio: ["ignore", "ignore", "inherit"],
});

const name = `bench_lists_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${name}`);
await admin.end();
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const databaseUrl = url.toString();

const FIRST = [
  "Walter",
  "Ann",
  "José",
  "Zoë",
  "Maria",
  "John",
  "Li",
  "Fatima",
  "Olga",
  "Pedro",
  "Grace",
  "Omar",
];
const LAST_A = ["Smith", "Hob", "Núñ", "Ång", "Gar", "Nguy", "Brow", "Oka", "Kowal", "Jen", "Mül", "Rey", "Tan",
  "Pat", "Dub", "Ols", "Ros", "Ka", "Mor", "Lee", "Car", "Fer", "Her", "Lop", "Wil", "And", "Tho", "Mar", "Cla",
  "Lew", "Rob", "Wal", "You", "Kin", "Wri", "Sco", "Gre", "Bak", "Ada", "Nel"]; // prettier-ignore
const LAST_B = ["", "son", "ley", "ez", "ström", "er", "ford", "ski", "ton", "well", "by", "man", "dez", "ins",
  "ard", "ell", "ick", "ow", "ers", "ham", "ley", "ola", "ano", "ova", "ing"]; // prettier-ignore
const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(",")}]`;

/** The data set: SQL set-returning inserts, so a million rows take seconds, not a million round trips. */
async function build() {
  const database = await openDatabase({ databaseUrl, poolSize: 4 });
  const { db } = database;
  const userId = objectId();
  for (const tenant of [TENANT, OTHER]) {
    await db
      .insert(schema.tenants)
      .values({ id: tenant, name: tenant, settings: { teleAwvEmail: false, alternateFalls: false } });
    await installBuiltinSurveys(db, tenant);
  }
  await db.insert(schema.users).values({
    id: userId,
    email: "bench@example.test",
    firstName: "B",
    lastName: "Ench",
    passwordHash: await hashPassword(PASSWORD),
  });
  await db.insert(schema.userTenants).values({ tenantId: TENANT, userId, roles: 1 | 2 });
  // A user of the other practice, whose first page "fairness" measures beside the first practice's load.
  const otherUserId = objectId();
  await db.insert(schema.users).values({
    id: otherUserId,
    email: OTHER_EMAIL,
    firstName: "O",
    lastName: "Ther",
    passwordHash: await hashPassword(PASSWORD),
  });
  await db.insert(schema.userTenants).values({ tenantId: OTHER, userId: otherUserId, roles: 1 | 2 });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const started = performance.now();
  for (const [tenant, patientCount, resultCount] of [
    [TENANT, PATIENTS, RESULTS],
    [OTHER, Math.ceil(PATIENTS / 10), Math.ceil(RESULTS / 10)],
  ] as const) {
    const prefix = tenant === TENANT ? "a" : "b";
    await pool.query(
      `insert into patients (tenant_id, id, mrn, first_name, last_name, dob, sex, email, phone)
       select $1, '${prefix}' || lpad(to_hex(g), 23, '0'), 'M-' || g,
         (${sqlArray(FIRST)})[1 + g % ${FIRST.length}],
         (${sqlArray(LAST_A)})[1 + (g / 7) % ${LAST_A.length}] || (${sqlArray(LAST_B)})[1 + (g / 11) % ${LAST_B.length}],
         date '1930-01-01' + (g * 37 % 25000), (array['F','M','U'])[1 + g % 3],
         'patient' || g || '@example.test', '555-' || lpad((g % 1000)::text, 3, '0') || '-' || lpad((g % 10000)::text, 4, '0')
       from generate_series(1, $2::int) g`,
      [tenant, patientCount],
    );
    const [version] = (
      await pool.query<{ version: number }>(`select version from surveys where tenant_id = $1 and id = $2`, [
        tenant,
        CORE_CARE_WELLNESS_EXAM_ID,
      ])
    ).rows;
    // Answers as JSONB of a few hundred bytes, newest first at g = 1: the newest 1% today (since midnight
    // UTC, as the API's "Today" counts, whatever the hour the bench runs at), the rest over 400 days.
    await pool.query(
      `insert into survey_results (tenant_id, id, survey_id, survey_tenant_id, survey_version, patient_id,
         client_request_id, answers, is_submitted, submitted_at, created_at, updated_at)
       select $1, '${prefix}' || lpad(to_hex(g), 23, '0'), $2, $1, $3,
         '${prefix}' || lpad(to_hex(1 + g % $4::int), 23, '0'), 'bench-' || g,
         jsonb_build_object('phq2', jsonb_build_object('interest', g % 4, 'down', g % 3),
           'notes', 'Answer ' || g || ' to the notes question, a sentence or two of free text.',
           'vitals', jsonb_build_object('height', 150 + g % 40, 'weight', 50 + g % 60), 'smoker', g % 5 = 0),
         true, t.at, t.at, t.at
       from generate_series(1, $5::int) g, lateral (select date_trunc('day', now(), 'UTC') as midnight) d,
         lateral (select case when g <= $5::int / 100
           then now() - (g::float8 / ($5::int / 100 + 1)) * (now() - d.midnight)
           else d.midnight - ((g - $5::int / 100)::float8 / $5::int) * interval '400 days' end as at) t`,
      [tenant, CORE_CARE_WELLNESS_EXAM_ID, version?.version ?? 1, patientCount, resultCount],
    );
  }
  await pool.query(
    `insert into patients (tenant_id, id, mrn, first_name, last_name, dob, sex, email, phone)
     values ($1, $2, 'WH-1952', 'Walter', 'Hobbs', '1952-11-02', 'M', 'walter.hobbs@example.test', '555-201-3344')`,
    [TENANT, objectId()],
  );
  // A clinic's database as it runs, not as a bulk load leaves it: autovacuum has long since set the
  // visibility map (index-only scans read no table pages) and taken the load into the indexes.
  await pool.query("vacuum analyze");
  console.log(
    `data set: ${RESULTS} results and ${PATIENTS} patients (+10% in a second practice) built in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await pool.end();
  await database.close();
}

/**
 * The API as production runs it (`node dist/server.js`, as the Docker image and the README say), in its
 * own process, so its memory and CPU are its own.
 */
async function startApi(
  port: number,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; base: string; dataDir: string }> {
  const server = join("dist", "server.js");
  const dataDir = mkdtempSync(join(tmpdir(), "core-care-bench-lists-"));
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== "");
  const child = spawn(process.execPath, [...nodeArgs, server], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      NODE_ENV: "production",
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      SEED_ON_START: "false",
      DEMO_RECEIVER: "false",
      RATE_LIMIT_PER_MINUTE: "100000000",
      TRUST_PROXY: "true",
      LOG_LEVEL: "warn",
      WEB_DIST: join(dataDir, "none"),
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/api/config`)).ok) return { child, base, dataDir };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill("SIGTERM");
  throw new Error("the API did not start");
}

/** Peak resident memory of the API process, sampled every 100 ms. */
function watchMemory(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb * 1024);
    } catch {
      // the process is gone
    }
  }, 100);
  return {
    peakMiB: () => Math.round(peak / 1024 / 1024),
    stop: () => clearInterval(timer),
  };
}

async function signIn(base: string, email = "bench@example.test"): Promise<Record<string, string>> {
  const headers = {
    "content-type": "application/json",
    "x-requested-with": "XMLHttpRequest",
    "x-forwarded-proto": "https",
  };
  const res = await fetch(`${base}/api/auth/sessions`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  if (res.status !== 200 || cookie === "") throw new Error(`bench sign-in failed: ${res.status}`);
  return { cookie, "x-requested-with": "XMLHttpRequest", "x-forwarded-proto": "https" };
}

/** CPU time per request, in ms: the API process, the PostgreSQL server's processes, this process. */
interface CpuPerRequest {
  api: number;
  postgres: number;
  load: number;
}

interface Latency {
  p50: number;
  p99: number;
  errors: number;
  cpu: CpuPerRequest;
}

/** User and system CPU of a process so far, in ms (from /proc; Linux counts in 1/100 s). */
function processCpuMs(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0; // gone, or no /proc
  }
}

/** CPU of each PostgreSQL server process on this machine, by process id (none when the server is elsewhere). */
function postgresCpuMs(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres") byPid.set(pid, processCpuMs(pid));
    } catch {
      // ended meanwhile
    }
  }
  return byPid;
}

/**
 * Meters the CPU that the measured requests cost, so each list shows where its time goes: with every
 * core busy, N clients in a closed loop wait on average at least N x (CPU per request) / cores.
 */
function cpuMeter(apiPid: number) {
  const read = () => {
    const own = process.cpuUsage();
    return { api: processCpuMs(apiPid), postgres: postgresCpuMs(), load: (own.user + own.system) / 1000 };
  };
  const start = read();
  return (requests: number): CpuPerRequest => {
    const end = read();
    // A server process that ended meanwhile took its count with it; one that started counts from zero.
    let postgres = 0;
    for (const [pid, ms] of end.postgres) postgres += ms - (start.postgres.get(pid) ?? 0);
    const per = (ms: number) => Math.round((ms / Math.max(requests, 1)) * 100) / 100;
    return { api: per(end.api - start.api), postgres: per(postgres), load: per(end.load - start.load) };
  };
}

async function viaApi(
  url: string,
  headers: Record<string, string>,
  connections: number,
  apiPid: number,
): Promise<Latency> {
  const run = (duration: number) => autocannon({ url, connections, duration, workers: 1, headers });
  await run(1);
  const cpu = cpuMeter(apiPid);
  const result = await run(SECONDS);
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpu: cpu(result.requests.total),
  };
}

/** Ends the measuring early (BENCH_ONLY) without an error. */
class Done extends Error {}

type Statement = { text: string; values: unknown[]; rowMode?: "array" };

const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/**
 * The statements a service function sends, recorded by the connection that sends them (a search runs
 * in a transaction of its own), so that the floor replays exactly what the API runs for the request:
 * read as arrays where the function asks its `execute` for them, as the API's driver then reads them.
 */
async function statementsOf(
  run: (db: ReturnType<typeof drizzle<typeof schema>>, execute: Execute) => Promise<unknown>,
) {
  const recorded: Statement[] = [];
  let rowMode: "array" | undefined;
  class RecordingClient extends pg.Client {
    override query(...args: unknown[]): never {
      const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown];
      const mode = rowMode === undefined ? {} : { rowMode };
      rowMode = undefined;
      if (typeof first === "string")
        recorded.push({ text: first, values: Array.isArray(second) ? second : [], ...mode });
      else if (typeof first === "object" && first !== null && "text" in first)
        recorded.push({
          text: first.text,
          values: first.values ?? (Array.isArray(second) ? second : []),
          ...mode,
        });
      return (super.query as (...a: unknown[]) => never)(...args);
    }
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, Client: RecordingClient });
  pool.on("error", () => undefined);
  const db = drizzle(pool, { schema });
  const unprepared = executeOn(db);
  await run(db, (name, query, mode) => {
    rowMode = mode;
    return unprepared(name, query, mode);
  });
  await pool.end();
  return recorded;
}

/**
 * The plain-PostgreSQL floor: `clients` loops, each on a connection of its own, sending the statements
 * one after another for SECONDS.
 */
async function floor(
  pool: pg.Pool,
  statements: Statement[],
  clients: number,
  apiPid: number,
): Promise<Latency> {
  const times: number[] = [];
  const loop = async (until: number, keep: boolean) => {
    const client = await pool.connect();
    try {
      while (performance.now() < until) {
        const start = performance.now();
        // Prepared as the API prepares its own, on connections set as the API's list reads or searches
        // are: planned once per connection; read as arrays where the API reads so.
        for (const { rowMode, ...s } of statements) {
          const statement = { name: `floor-${digest(s.text)}`, ...s };
          await (rowMode === "array" ? client.query({ ...statement, rowMode }) : client.query(statement));
        }
        if (keep) times.push(performance.now() - start);
      }
    } finally {
      client.release();
    }
  };
  const warm = performance.now() + 1000;
  await Promise.all(Array.from({ length: clients }, () => loop(warm, false)));
  const cpu = cpuMeter(apiPid);
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: clients }, () => loop(until, true)));
  const perRequest = cpu(times.length);
  times.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0) * 10) / 10;
  return { p50: at(0.5), p99: at(0.99), errors: 0, cpu: perRequest };
}

/**
 * The other practice's first page, 4 clients, alone and then while one session of the first practice
 * loops on its deepest page number at 20 clients, on an API process with the default settings (the
 * per-practice cap on list reads): the p99s and their ratio, and how the looping session was answered.
 */
async function fairness(): Promise<Record<string, string | number>> {
  const fair = await startApi(PORT + 1);
  try {
    const otherHeaders = await signIn(fair.base, OTHER_EMAIL);
    const deepHeaders = await signIn(fair.base);
    const firstPage = `${fair.base}/api/surveyresults?duration=5`;
    const otherRun = () =>
      autocannon({ url: firstPage, connections: 4, duration: SECONDS, workers: 1, headers: otherHeaders });
    await autocannon({ url: firstPage, connections: 4, duration: 1, workers: 1, headers: otherHeaders });
    const alone = await otherRun();
    const [during, deep] = await Promise.all([
      otherRun(),
      autocannon({
        url: `${fair.base}${deepResultsPath}`,
        connections: 20,
        duration: SECONDS,
        workers: 1,
        headers: deepHeaders,
      }),
    ]);
    const deep503 = deep.statusCodeStats?.["503"]?.count ?? 0;
    return {
      list: "fairness: other practice's first page (4c) alone / while one session loops on the deepest page (20c)",
      "alone p50/p99": `${alone.latency.p50} / ${alone.latency.p99}`,
      "during p50/p99": `${during.latency.p50} / ${during.latency.p99}`,
      "p99 ratio during/alone":
        alone.latency.p99 > 0 ? Math.round((during.latency.p99 / alone.latency.p99) * 10) / 10 : "-",
      "answers alone/during": `${alone.requests.total} / ${during.requests.total}`,
      errors: alone.errors + alone.non2xx + during.errors + during.non2xx,
      "deep session 2xx/503": `${deep.requests.total - deep.non2xx} / ${deep503}`,
    };
  } finally {
    fair.child.kill("SIGTERM");
    await new Promise((resolve) => fair.child.once("exit", resolve));
    rmSync(fair.dataDir, { recursive: true, force: true });
  }
}

await build();
if (process.env.BENCH_KEEP_DATABASE === "1") {
  // For looking at query plans by hand: the data set stays, under the printed name.
  console.log(`kept database ${name}`);
  process.exit(0);
}
// Idle connections stay open, so no server process ends (taking its CPU count with it) while another list is measured.
const plain = new pg.Pool({ connectionString: databaseUrl, max: 20, idleTimeoutMillis: 0 });
// The statements the API prepares run on connections set as the API's list reads are (one generic plan).
const plainList = new pg.Pool({
  connectionString: databaseUrl,
  max: 20,
  idleTimeoutMillis: 0,
  options: LIST_READ_OPTIONS,
});
// A search's statement runs on connections set as the API's searches are (bitmap scans only).
const plainSearch = new pg.Pool({
  connectionString: databaseUrl,
  max: 20,
  idleTimeoutMillis: 0,
  options: SEARCH_READ_OPTIONS,
});
// The database is dropped at the end with its connections: an idle one's error then means nothing.
for (const pool of [plain, plainList, plainSearch]) pool.on("error", () => undefined);
const keyOf = async (text: string, values: unknown[]) =>
  (await plain.query(text, values)).rows[0] as Record<string, string>;
const deepResult = await keyOf(
  `select (extract(epoch from created_at) * 1000000)::bigint::text as micros, id from survey_results
   where tenant_id = $1 order by created_at desc, id desc offset $2 limit 1`,
  [TENANT, Math.floor(RESULTS / 2)],
);
const deepPatient = await keyOf(
  `select last_name, first_name, id from patients where tenant_id = $1 and deleted_at is null
   order by last_name, first_name, id offset $2 limit 1`,
  [TENANT, Math.floor(PATIENTS / 2)],
);
const [onePatient] = (
  await plain.query<{ patient_id: string }>(
    `select patient_id from survey_results where tenant_id = $1 limit 1`,
    [TENANT],
  )
).rows;
const resultCursor = encodeCursor({ dir: "next", key: [deepResult.micros!, deepResult.id!] });
const patientCursor = encodeCursor({
  dir: "next",
  key: [deepPatient.last_name!, deepPatient.first_name!, deepPatient.id!],
});

/**
 * The statements a list read sends once the API is warm: read twice, so that the second read knows
 * what the first found (a list longer than the capped count is not counted again).
 */
const warmStatementsOf = async (
  read: (
    db: ReturnType<typeof drizzle<typeof schema>>,
    capped: CappedLists,
    execute: Execute,
  ) => Promise<unknown>,
): Promise<Statement[]> => {
  const capped = new CappedLists({ maxEntries: 100, maxAgeMs: 3_600_000 });
  capped.onLive(true);
  await statementsOf((db, execute) => read(db, capped, execute));
  return statementsOf((db, execute) => read(db, capped, execute));
};

/** A hand-written floor: one statement, prepared once per connection as the API's are. */
const hand = (text: string, values: unknown[]) => () => Promise.resolve<Statement[]>([{ text, values }]);
const RESULT_COLUMNS = `r.id, r.survey_id, coalesce(v.title, '') as survey_title, r.patient_id, r.patient_first_name,
  r.patient_last_name, r.patient_mrn, r.survey_version, r.is_submitted, r.created_at, r.updated_at, r.patient_dob`;
const RESULT_FROM = `survey_results r left join survey_versions v on v.tenant_id = r.survey_tenant_id
  and v.survey_id = r.survey_id and v.version = r.survey_version`;
const LIVE_RESULTS = `r.tenant_id = $1 and r.deleted_at is null and not r.patient_removed`;
const PATIENT_COLUMNS = `id, mrn, first_name, last_name, dob::text as dob, sex, email, phone, address, ethnicity,
  race, location_id, preferred_language`;
const LIVE_PATIENTS = `tenant_id = $1 and deleted_at is null`;
/** The patients list's index order for each sort (the indexes patients_*_idx and patients_mrn_key). */
const SORT_KEYS: Record<"lastName" | "firstName" | "mrn" | "dob", string[]> = {
  lastName: ["last_name", "first_name", "id"],
  firstName: ["first_name", "last_name", "id"],
  mrn: ["mrn", "id"],
  dob: ["dob", "last_name", "first_name", "id"],
};
const orderBy = (keys: string[], order: "asc" | "desc") => keys.map((k) => `${k} ${order}`).join(", ");
const deepestResultsPage = lastPageNumber(PAGE_SIZE);
const deepestPatientsPage = lastPageNumber(5);
const mrnSearched = `M-${Math.floor(PATIENTS / 3)}`;
const deepResultsPath = `/api/surveyresults?duration=5&page=${deepestResultsPage}`;

const cases: {
  name: string;
  path: string;
  pool: pg.Pool;
  statements: () => Promise<Statement[]>;
}[] = [
  ...(
    [
      ["results of one patient", { duration: "5", patientId: onePatient!.patient_id }],
      ["results, Today", { duration: "1" }],
      ["results, Since Yesterday", { duration: "0" }],
      ["results, All, first page", { duration: "5" }],
      [`results, All, cursor at row ${Math.floor(RESULTS / 2)}`, { duration: "5", cursor: resultCursor }],
    ] as const
  ).map(([label, query]) => ({
    name: label,
    path: `/api/surveyresults?${new URLSearchParams(query).toString()}`,
    pool: plainList,
    statements: () =>
      warmStatementsOf((db, capped, execute) =>
        listResultsJson(db, TENANT, SurveyResultListQuerySchema.parse(query), undefined, execute, capped),
      ),
  })),
  ...(
    [
      ["patients, by last name", { sort: "lastName" }],
      [`patients, cursor at row ${Math.floor(PATIENTS / 2)}`, { sort: "lastName", cursor: patientCursor }],
      ['typeahead "smith" (limit 5)', { q: "smith", limit: "5" }],
      ['search "Hobbs, Walter"', { q: "Hobbs, Walter" }],
      ['search "11/02/1952"', { q: "11/02/1952" }],
      ['search "555-201-3344"', { q: "555-201-3344" }],
    ] as const
  ).map(([label, query]) => ({
    name: label,
    path: `/api/patients?${new URLSearchParams(query).toString()}`,
    pool: "q" in query ? plainSearch : plainList,
    // As the API sends them once warm: a search on a connection already set for searches, the list
    // without one not counted again once known to be longer than the capped count.
    statements: () =>
      warmStatementsOf((db, capped, execute) =>
        listPatients(db, TENANT, PatientListQuerySchema.parse(query), {
          searchReads: (work) => work(db, execute),
          capped,
        }),
      ),
  })),
  // The deepest page number allowed (the last the capped count shows), by OFFSET along the list's index.
  {
    name: `results, All, page ${deepestResultsPage} (deepest allowed)`,
    path: deepResultsPath,
    pool: plainList,
    statements: hand(
      `select ${RESULT_COLUMNS} from ${RESULT_FROM} where ${LIVE_RESULTS} and r.created_at >= $2
       order by r.created_at desc, r.id desc limit ${PAGE_SIZE + 1} offset ${(deepestResultsPage - 1) * PAGE_SIZE}`,
      [TENANT, new Date(0)],
    ),
  },
  {
    name: `results, survey filter`,
    path: `/api/surveyresults?duration=5&surveyId=${CORE_CARE_WELLNESS_EXAM_ID}`,
    pool: plain,
    statements: hand(
      `select ${RESULT_COLUMNS} from ${RESULT_FROM} where ${LIVE_RESULTS} and r.survey_id = $2
       and r.created_at >= $3 order by r.created_at desc, r.id desc limit ${PAGE_SIZE + 1}`,
      [TENANT, CORE_CARE_WELLNESS_EXAM_ID, new Date(0)],
    ),
  },
  ...(["lastName", "firstName", "mrn", "dob"] as const).flatMap((sort) =>
    (["asc", "desc"] as const).map((order) => ({
      name: `patients, sort ${sort} ${order}`,
      path: `/api/patients?sort=${sort}&order=${order}`,
      pool: plainList,
      statements: hand(
        `select ${PATIENT_COLUMNS} from patients where ${LIVE_PATIENTS}
         order by ${orderBy(SORT_KEYS[sort], order)} limit ${PAGE_SIZE + 1}`,
        [TENANT],
      ),
    })),
  ),
  {
    name: `patients, page ${deepestPatientsPage} at limit 5 (deepest allowed)`,
    path: `/api/patients?sort=lastName&limit=5&page=${deepestPatientsPage}`,
    pool: plainList,
    statements: hand(
      `select ${PATIENT_COLUMNS} from patients where ${LIVE_PATIENTS}
       order by ${orderBy(SORT_KEYS.lastName, "asc")} limit 6 offset ${(deepestPatientsPage - 1) * 5}`,
      [TENANT],
    ),
  },
  // A partial word as typed into the typeahead: the trigram index, the first five in name order.
  {
    name: 'typeahead "smi" (limit 5)',
    path: `/api/patients?q=smi&limit=5`,
    pool: plainSearch,
    statements: hand(
      `select ${PATIENT_COLUMNS} from patients where ${LIVE_PATIENTS} and search_text like $2
       order by ${orderBy(SORT_KEYS.lastName, "asc")} limit 6`,
      [TENANT, "%smi%"],
    ),
  },
  // An MRN: one entry of patients_mrn_key.
  {
    name: `search MRN "${mrnSearched}"`,
    path: `/api/patients?q=${encodeURIComponent(mrnSearched)}&limit=5`,
    pool: plainList,
    statements: hand(`select ${PATIENT_COLUMNS} from patients where ${LIVE_PATIENTS} and mrn = $2`, [
      TENANT,
      mrnSearched,
    ]),
  },
];

// BENCH_ONLY=<text>[|<text>…] measures only the cases whose name holds one of them, and no batch upload.
const only = process.env.BENCH_ONLY ?? "";
const chosen = cases.filter((c) => only.split("|").some((part) => c.name.includes(part)));

// The cases measure a list's own cost at 20 clients of one practice: the per-practice cap is raised to them.
const api = await startApi(PORT, { LIST_TENANT_CONCURRENCY: "20", LIST_TENANT_WAIT_MS: "10000" });
const memory = watchMemory(api.child.pid!);
const rows: Record<string, string | number>[] = [];
let listsPeakMiB = 0;
try {
  const headers = await signIn(api.base);
  for (const c of chosen) {
    const statements = await c.statements();
    const row: Record<string, string | number> = { list: c.name };
    for (const clients of [1, 20]) {
      const a = await viaApi(`${api.base}${c.path}`, headers, clients, api.child.pid!);
      const f = await floor(c.pool, statements, clients, api.child.pid!);
      row[`api ${clients}c p50/p99`] = `${a.p50} / ${a.p99}`;
      row[`floor ${clients}c p50/p99`] = `${f.p50} / ${f.p99}`;
      row[`p99 ratio ${clients}c`] = f.p99 > 0 ? Math.round((a.p99 / f.p99) * 10) / 10 : "-";
      if (a.errors > 0) row.errors = a.errors;
      if (clients > 1) {
        row[`${clients}c cpu ms/req api+pg+load`] = `${a.cpu.api}+${a.cpu.postgres}+${a.cpu.load}`;
        row[`${clients}c floor cpu pg+load`] = `${f.cpu.postgres}+${f.cpu.load}`;
        const bound = (cpu: CpuPerRequest) =>
          Math.round((clients * (cpu.api + cpu.postgres + cpu.load)) / CORES);
        row[`${clients}c cpu-bound mean api/floor`] = `${bound(a.cpu)} / ${bound(f.cpu)}`;
      }
    }
    rows.push(row);
    console.log(JSON.stringify(row));
  }

  listsPeakMiB = memory.peakMiB();
  if (only === "" || only.split("|").includes("fairness")) {
    const row = await fairness();
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  if (only !== "") throw new Done();
  // Batch: a streamed NDJSON upload beside multi-row INSERTs of the same rows on the plain pool.
  const patientIds = (
    await plain.query<{ id: string }>(`select id from patients where tenant_id = $1 limit 1000`, [TENANT])
  ).rows.map((r) => r.id);
  const rowAt = (i: number, prefix: string) => ({
    externalId: `${prefix}-${i}`,
    patientId: patientIds[i % patientIds.length],
    surveyId: CORE_CARE_WELLNESS_EXAM_ID,
    answers: { notes: `Imported answer ${i}`, phq2: { interest: i % 4, down: i % 3 } },
  });
  async function* body() {
    for (let i = 0; i < BATCH_ROWS; i += 1000) {
      let chunk = "";
      for (let j = i; j < Math.min(BATCH_ROWS, i + 1000); j++)
        chunk += `${JSON.stringify(rowAt(j, "api"))}\n`;
      yield Buffer.from(chunk);
    }
  }
  const batchStart = performance.now();
  const upload = await fetch(`${api.base}/api/surveyresults/batchUpload/stream`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/x-ndjson" },
    body: ReadableStream.from(body()),
    duplex: "half",
  });
  const uploaded = (await upload.json()) as { created: number; rejectedCount: number };
  if (upload.status !== 200) console.log("batch upload refused:", JSON.stringify(uploaded));
  const apiSeconds = (performance.now() - batchStart) / 1000;
  const [version] = (
    await plain.query<{ version: number }>(`select version from surveys where tenant_id = $1 and id = $2`, [
      TENANT,
      CORE_CARE_WELLNESS_EXAM_ID,
    ])
  ).rows;
  const floorStart = performance.now();
  for (let i = 0; i < BATCH_ROWS; i += 1000) {
    const chunk = Array.from({ length: Math.min(1000, BATCH_ROWS - i) }, (_, k) => {
      const r = rowAt(i + k, "floor");
      return { id: objectId(), crid: `floor-${i + k}`, patient: r.patientId, answers: r.answers };
    });
    await plain.query(
      `insert into survey_results (tenant_id, id, survey_id, survey_tenant_id, survey_version, patient_id,
         client_request_id, answers, is_submitted, submitted_at)
       select $1, x.id, $2, $1, $3, x.patient, x.crid, x.answers, true, now()
       from jsonb_to_recordset($4::jsonb) as x(id text, crid text, patient text, answers jsonb)`,
      [TENANT, CORE_CARE_WELLNESS_EXAM_ID, version?.version ?? 1, JSON.stringify(chunk)],
    );
  }
  const floorSeconds = (performance.now() - floorStart) / 1000;
  const apiRate = Math.round(uploaded.created / apiSeconds);
  const floorRate = Math.round(BATCH_ROWS / floorSeconds);
  console.log(
    `\nbatch upload, ${BATCH_ROWS} rows streamed: API ${apiRate} rows/s (${uploaded.created} created, ${uploaded.rejectedCount} rejected, HTTP ${upload.status}); plain INSERTs ${floorRate} rows/s; ratio ${(floorRate / Math.max(apiRate, 1)).toFixed(1)}x (target >= 1,000 rows/s)`,
  );
  rows.push({ list: "batch upload rows/s", api: apiRate, floor: floorRate });
} catch (error) {
  if (!(error instanceof Done)) throw error;
} finally {
  memory.stop();
  api.child.kill("SIGTERM");
  await new Promise((resolve) => api.child.once("exit", resolve));
  rmSync(api.dataDir, { recursive: true, force: true });
  await Promise.all([plain.end(), plainList.end(), plainSearch.end()]);
  const dropper = new pg.Client({ connectionString: serverUrl });
  await dropper.connect();
  await dropper.query(`drop database if exists ${name} with (force)`);
  await dropper.end();
}

console.log(
  `\nlists on PostgreSQL: ${RESULTS} results, ${PATIENTS} patients, ${SECONDS} s per case; latencies in ms`,
);
console.table(rows);
console.log(
  `cpu ms/req: CPU time per answered request of the API process, the PostgreSQL server's processes and this one (the load); cpu-bound mean: the least mean latency N clients in a closed loop can see on ${CORES} cores at that CPU per request (N x CPU / cores)`,
);
console.log(
  `API peak memory (RSS): ${memory.peakMiB()} MiB, ${listsPeakMiB} MiB through the lists (target < 300 MiB); load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
mkdirSync(".reports", { recursive: true });
writeFileSync(
  join(".reports", "bench-lists.json"),
  JSON.stringify(
    { results: RESULTS, patients: PATIENTS, seconds: SECONDS, rows, peakMiB: memory.peakMiB(), listsPeakMiB },
    null,
    2,
  ),
);

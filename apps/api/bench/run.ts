/**
 * Load benchmark of signed-in survey-result saves (POST /api/surveyresults) with sessions, tenancy,
 * validation and audit switched on, beside two bare baselines on the same database, measured in the same
 * run: Fastify + zod + a JSONB insert of the same row committed alone, and the same with the app's
 * grouping (saves arriving together go in one multi-row INSERT and one commit, through the app's own
 * Batcher with its settings), so that the ratio to the second is the app's overhead and not its
 * batching. Each case's rows written are counted against its successful answers. Loopback only, bounded
 * by BENCH_DURATION seconds per case.
 *
 *   pnpm --filter @core-care/api bench                    # PGlite
 *   DATABASE_URL=postgres://… pnpm --filter @core-care/api bench   # PGlite and the PostgreSQL server
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import Fastify from "fastify";
import pg from "pg";
import { sql } from "drizzle-orm";
import { objectId, CORE_CARE_WELLNESS_EXAM_ID } from "@core-care/survey-engine";
import { SurveyResultSaveRequestSchema } from "@core-care/schema";
import { buildApp } from "../src/app.js";
import type { Config } from "../src/config.js";
import { openDatabase, type Database } from "../src/db/index.js";
import { patients, surveyResults, tenants, userTenants, users } from "../src/db/schema.js";
import { Batcher } from "../src/services/batcher.js";
import { installBuiltinSurveys } from "../src/services/builtin-surveys.js";
import { hashPassword } from "../src/services/passwords.js";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const PASSWORD = "bench passphrase: cobalt heron 2291";
/** Puts a fresh client request id into every request body (a file: the generator is a worker thread). */
const SETUP_REQUEST = fileURLToPath(new URL("save-request.cjs", import.meta.url));
const ANSWERS = {
  functional: { eating: "0", bathroom: "0" },
  pain: { hadPain: "1" },
  social: { exerciseYesNo: "yes" },
};

interface Row {
  database: string;
  target: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** Saves the server answered 2xx, the warm-up's and those in flight as the clock stopped included. */
  answered: number;
  /** Rows the case added to survey_results: one for each 2xx answer. */
  rowsWritten: number;
}

/**
 * Loads one route for DURATION seconds. The load generator runs in a worker thread, so that the server's
 * event loop carries only the server and the latencies are not stretched by the generator's own work.
 */
async function load(url: string, headers: Record<string, string>, body: object) {
  const run = (duration: number) =>
    autocannon({
      url,
      connections: CONNECTIONS,
      duration,
      workers: 1,
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      requests: [{ method: "POST", body: JSON.stringify(body), setupRequest: SETUP_REQUEST }],
    });
  // Unmeasured first: the same load while the JIT compiles the hot paths and caches fill.
  if (WARMUP > 0) await run(WARMUP);
  const result = await run(DURATION);
  // Let requests still in flight when the clock stopped finish before the server and database close.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** The rows of survey_results. */
async function countRows(database: Database): Promise<number> {
  const [count] = await database.db.select({ n: sql<number>`count(*)::int` }).from(surveyResults);
  return count?.n ?? 0;
}

/** Runs a case and counts the rows it wrote. */
async function counted(
  database: Database,
  measure: (served: { ok: number }) => Promise<Omit<Row, "rowsWritten" | "answered">>,
): Promise<Row> {
  const served = { ok: 0 };
  const before = await countRows(database);
  const row = await measure(served);
  return { ...row, answered: served.ok, rowsWritten: (await countRows(database)) - before };
}

async function seed(database: Database) {
  const tenantId = "bench";
  const userId = objectId();
  const patientId = objectId();
  await database.db
    .insert(tenants)
    .values({ id: tenantId, name: "Bench", settings: { teleAwvEmail: false, alternateFalls: false } });
  await installBuiltinSurveys(database.db, tenantId);
  await database.db.insert(users).values({
    id: userId,
    email: "bench@example.test",
    firstName: "B",
    lastName: "Ench",
    passwordHash: await hashPassword(PASSWORD),
  });
  await database.db.insert(userTenants).values({ tenantId, userId, roles: 1 });
  await database.db.insert(patients).values({
    tenantId,
    id: patientId,
    mrn: "B-1",
    firstName: "P",
    lastName: "Atient",
    dob: "1950-01-01",
    sex: "F",
  });
  return { tenantId, patientId };
}

/** The full app: session cookie, CSRF header, tenancy, zod, idempotency key, audit. */
async function benchApp(
  database: Database,
  label: string,
  patientId: string,
  served: { ok: number },
): Promise<Omit<Row, "rowsWritten" | "answered">> {
  const dataDir = mkdtempSync(join(tmpdir(), "core-care-bench-"));
  const config: Config = {
    port: 0,
    host: "127.0.0.1",
    dataDir,
    databaseUrl: undefined,
    nodeEnv: "production",
    sessionSecret: randomBytes(32).toString("base64url"),
    demoPassword: PASSWORD,
    idleTimeoutSeconds: 1440,
    teleAwvLinkTtlSeconds: 14 * 24 * 60 * 60,
    absoluteTimeoutSeconds: 43_200,
    smtpUrl: undefined,
    mailFrom: "bench@example.test",
    publicUrl: "http://127.0.0.1",
    webDist: join(dataDir, "none"),
    logLevel: "warn",
    seedOnStart: false,
    demoReceiver: false,
    rateLimitPerMinute: 10_000_000,
    trustProxy: true,
    workers: 1,
    metricsToken: undefined,
    shutdownTimeoutSeconds: 30,
    inboundHl7: undefined,
  };
  const app = await buildApp(config, { database });
  // Counted as the answer is sent, as the baseline counts its own: a save answered as the load stopped
  // is written and answered even though its connection has gone.
  app.addHook("onSend", async (request, reply) => {
    if (request.routeOptions.url === "/api/surveyresults" && reply.statusCode === 200) served.ok++;
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  try {
    const login = await fetch(`${address}/api/auth/sessions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-requested-with": "XMLHttpRequest",
        "x-forwarded-proto": "https",
      },
      body: JSON.stringify({ email: "bench@example.test", password: PASSWORD }),
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    if (login.status !== 200 || cookie === "") throw new Error(`bench login failed: ${login.status}`);
    const stats = await load(
      `${address}/api/surveyresults`,
      { cookie, "x-requested-with": "XMLHttpRequest", "x-forwarded-proto": "https" },
      {
        clientRequestId: "CLIENT_REQUEST_ID",
        surveyId: CORE_CARE_WELLNESS_EXAM_ID,
        patientId,
        isSubmitted: false,
        answers: ANSWERS,
      },
    );
    return { database: label, target: "core-care (sessions, tenancy, audit)", ...stats };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type ResultRow = typeof surveyResults.$inferInsert;

/**
 * A baseline: Fastify, the same zod schema and a JSONB insert of the same row, nothing else; each row
 * committed alone, or `grouped` as the app groups its saves (its Batcher, with the same settings).
 */
async function benchBare(
  database: Database,
  label: string,
  tenantId: string,
  patientId: string,
  grouped: boolean,
  served: { ok: number },
): Promise<Omit<Row, "rowsWritten" | "answered">> {
  const insert = async (rows: ResultRow[]) => {
    await database.db.insert(surveyResults).values(rows);
    return rows.map(() => undefined);
  };
  const batcher = new Batcher<ResultRow, undefined>(insert, {
    maxBatch: 200,
    maxInFlight: database.kind === "pglite" ? 1 : 2,
  });
  const app = Fastify({ logger: false });
  app.post("/save", async (request) => {
    const body = SurveyResultSaveRequestSchema.parse(request.body);
    const row: ResultRow = {
      tenantId,
      id: objectId(),
      surveyId: body.surveyId,
      surveyTenantId: tenantId,
      surveyVersion: 1,
      patientId: body.patientId,
      clientRequestId: body.clientRequestId,
      answers: body.answers,
      isSubmitted: body.isSubmitted,
    };
    if (grouped) await batcher.add(row);
    else await insert([row]);
    served.ok++;
    return { id: row.id };
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  try {
    const stats = await load(
      `${address}/save`,
      {},
      {
        clientRequestId: "CLIENT_REQUEST_ID",
        surveyId: CORE_CARE_WELLNESS_EXAM_ID,
        patientId,
        isSubmitted: false,
        answers: ANSWERS,
      },
    );
    const target = grouped ? "bare fastify + zod + grouped insert" : "bare fastify + zod + insert";
    return { database: label, target, ...stats };
  } finally {
    await app.close();
  }
}

async function withDatabase(
  kind: "pglite" | "postgres",
): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === "pglite") {
    // On disk, as `pnpm start` keeps it: an in-memory PGlite stalls on every new WAL segment, which
    // its in-memory file system grows by copying, and the server's never does.
    const dir = mkdtempSync(join(tmpdir(), "core-care-bench-pglite-"));
    const database = await openDatabase({ pgliteDir: dir });
    return {
      database,
      async drop() {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
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
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 20 });
  return {
    database,
    async drop() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

const kinds: ("pglite" | "postgres")[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
// BENCH_DATABASES=postgres (or pglite) measures one of them only.
const only = process.env.BENCH_DATABASES;
if (only !== undefined && only !== "")
  kinds.splice(0, kinds.length, ...kinds.filter((k) => only.includes(k)));
const rows: Row[] = [];
for (const kind of kinds) {
  const { database, drop } = await withDatabase(kind);
  try {
    const { tenantId, patientId } = await seed(database);
    rows.push(
      await counted(database, (served) => benchBare(database, kind, tenantId, patientId, false, served)),
    );
    rows.push(
      await counted(database, (served) => benchBare(database, kind, tenantId, patientId, true, served)),
    );
    rows.push(await counted(database, (served) => benchApp(database, kind, patientId, served)));
  } finally {
    await drop();
  }
}

console.log(`\nPOST survey result, ${CONNECTIONS} connections, ${DURATION} s each, loopback\n`);
console.table(rows);
console.log(
  "answered: the saves the server answered 2xx in the case, its warm-up's and those in flight as the clock " +
    "stopped included; rowsWritten: the rows the case added, which must be as many.",
);
for (const kind of kinds) {
  const of = (target: string) => rows.find((r) => r.database === kind && r.target === target);
  const alone = of("bare fastify + zod + insert");
  const grouped = of("bare fastify + zod + grouped insert");
  const full = of("core-care (sessions, tenancy, audit)");
  if (alone === undefined || grouped === undefined || full === undefined) continue;
  const percent = (base: Row) =>
    Math.round((100 * full.requestsPerSecond) / Math.max(1, base.requestsPerSecond));
  const lost = rows.filter((r) => r.database === kind && r.rowsWritten !== r.answered).map((r) => r.target);
  console.log(
    `${kind}: core-care at ${percent(grouped)}% of the grouped baseline (target: 70%), ` +
      `${percent(alone)}% of the one-row-a-commit baseline; p99 ${full.p99Ms} ms (target < 20 ms); ` +
      (lost.length === 0
        ? "rows written = answers in every case"
        : `ROWS WRITTEN != ANSWERS: ${lost.join(", ")}`),
  );
}
mkdirSync(".reports", { recursive: true });
writeFileSync(
  join(".reports", "bench.json"),
  JSON.stringify({ connections: CONNECTIONS, durationSeconds: DURATION, rows }, null, 2),
);

/**
 * The audit log's filters on a large trail: one tenant with BENCH_AUDIT_EVENTS (default 200,000) events
 * about 2,000 patients and 8,000 results, each query's median of 7 runs after one unmeasured, reported
 * as a ratio to the unfiltered first page (which also counts the trail) in the same run. On PGlite, and
 * on the server too when DATABASE_URL is set (a throwaway database).
 * Run: pnpm --filter @core-care/api exec tsx --conditions=source bench/audit-log.ts
 */
import { performance } from "node:perf_hooks";
import { loadavg } from "node:os";
import pg from "pg";
import { sql } from "drizzle-orm";
import { objectId } from "@core-care/survey-engine";
import { openDatabase, type Database } from "../src/db/index.js";
import { tenants } from "../src/db/schema.js";
import { auditEventsForExport, listAuditEvents } from "../src/services/audit-log.js";

const N = Number(process.env.BENCH_AUDIT_EVENTS ?? 200_000);

async function run(url: string | undefined): Promise<void> {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  if (url) {
    const name = `m_${process.pid}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`create database ${name}`);
    await c.end();
    const u = new URL(url);
    u.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: u.toString(), poolSize: 2 });
    drop = async () => {
      const d = new pg.Client({ connectionString: url });
      await d.connect();
      await d.query(`drop database ${name} with (force)`);
      await d.end();
    };
  } else database = await openDatabase({});
  const db = database.db;
  const tenantId = "m-tenant";
  await db
    .insert(tenants)
    .values({ id: tenantId, name: "M", settings: { teleAwvEmail: false, alternateFalls: false } });
  const users = Array.from({ length: 50 }, () => objectId());
  const patientsIds = Array.from({ length: 2000 }, () => objectId());
  const target = patientsIds[7]!;
  // results: 4 per patient
  const results: { id: string; patient: string }[] = [];
  for (const p of patientsIds) for (let k = 0; k < 4; k++) results.push({ id: objectId(), patient: p });
  await db.execute(sql`insert into survey_results (tenant_id, id, survey_id, survey_tenant_id, survey_version, patient_id, client_request_id, answers)
  select ${tenantId}, r->>'id', 's', ${tenantId}, 1, r->>'patient', r->>'id', '{}'::jsonb from jsonb_array_elements(${JSON.stringify(results)}::jsonb) r`);
  const batch = 10_000;
  for (let i = 0; i < N; i += batch) {
    const rows = Array.from({ length: Math.min(batch, N - i) }, (_, k) => {
      const n = i + k;
      const r = results[n % results.length]!;
      const isPatient = n % 3 === 0;
      return {
        id: objectId(),
        u: users[n % users.length],
        a: n % 5 === 0 ? "update" : "read",
        e: isPatient ? "patient" : "survey-result",
        eid: isPatient ? r.patient : r.id,
        at: new Date(Date.now() - (N - n) * 1000).toISOString(),
      };
    });
    await db.execute(sql`insert into audit_events (tenant_id, id, user_id, action, entity, entity_id, at)
    select ${tenantId}, x->>'id', x->>'u', x->>'a', x->>'e', x->>'eid', (x->>'at')::timestamptz from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) x`);
  }
  await db.execute(sql`analyze`);
  async function time(label: string, f: () => Promise<unknown>) {
    await f();
    const runs: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      await f();
      runs.push(performance.now() - t0);
    }
    runs.sort((a, b) => a - b);
    return { label, median: runs[3]! };
  }
  const out = [
    await time("page 1, no filter (with total)", () => listAuditEvents(db, tenantId, { page: 1 })),
    await time("page 1, by patient", () => listAuditEvents(db, tenantId, { page: 1, patientId: target })),
    await time("page 1, by user id", () => listAuditEvents(db, tenantId, { page: 1, user: users[3]! })),
    await time("page 1, by action + last day", () =>
      listAuditEvents(db, tenantId, {
        page: 1,
        action: "update",
        from: new Date(Date.now() - 86_400_000).toISOString(),
      }),
    ),
    await time("export by patient", async () => {
      for await (const batch of auditEventsForExport(db, tenantId, { patientId: target })) void batch;
    }),
  ];
  const base = out[0]!.median;
  for (const o of out)
    console.log(`${o.label}: ${o.median.toFixed(1)} ms (${(o.median / base).toFixed(2)}x of no filter)`);
  console.log(
    `events ${N}, ${url ? "postgres" : "pglite"}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  await database.close();
  await drop?.();
}

await run(undefined);
if (process.env.DATABASE_URL) await run(process.env.DATABASE_URL);

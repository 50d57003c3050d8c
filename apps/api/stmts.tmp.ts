import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import * as schema from "./src/db/schema.js";
import { listResults } from "./src/services/survey-results.js";
import { listPatients } from "./src/services/patients.js";
import { SurveyResultListQuerySchema, PatientListQuerySchema } from "@core-care/schema";
const url = process.env.DB!;
const recorded: { text: string; values: unknown[] }[] = [];
class C extends pg.Client { override query(...a: any[]): any { const [f, s] = a; if (typeof f === "string") recorded.push({ text: f, values: s ?? [] }); else recorded.push({ text: f.text, values: f.values ?? s ?? [] }); return (super.query as any)(...a); } }
const pool = new pg.Pool({ connectionString: url, max: 1, Client: C });
const db = drizzle(pool, { schema });
const which = process.argv[2]!;
const q = JSON.parse(process.argv[3]!);
if (which === "results") await listResults(db as any, "bench", SurveyResultListQuerySchema.parse(q));
else await listPatients(db as any, "bench", PatientListQuerySchema.parse(q));
await pool.end();
const plain = new pg.Client({ connectionString: url }); await plain.connect();
for (const s of recorded) {
  if (!/^\s*select/i.test(s.text)) { console.log("--", s.text); continue; }
  console.log("==", s.text, JSON.stringify(s.values));
  const r = await plain.query("explain (analyze, buffers) " + s.text, s.values as any[]);
  console.log(r.rows.map((x: any) => x["QUERY PLAN"]).join("\n"));
}
await plain.end();

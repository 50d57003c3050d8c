/**
 * The save bench's baselines, each run as a process of its own as the API is (bench/run.ts): Fastify,
 * the same zod schema and a JSONB insert of the same row, nothing else; each row committed alone, or,
 * with BENCH_GROUPED=1, grouped as the app groups its saves (its Batcher, with the same settings). The
 * database is the API's: DATABASE_URL with the API's pool size, else PGlite under DATA_DIR.
 *
 *   node --conditions=source --import tsx bench/bare-server.ts   (PORT, BENCH_TENANT, BENCH_GROUPED)
 */
import { join } from "node:path";
import Fastify from "fastify";
import { objectId } from "@core-care/survey-engine";
import { SurveyResultSaveRequestSchema } from "@core-care/schema";
import { openDatabase } from "../src/db/index.js";
import { surveyResults } from "../src/db/schema.js";
import { Batcher } from "../src/services/batcher.js";

const databaseUrl = process.env.DATABASE_URL;
const database = await openDatabase(
  databaseUrl !== undefined && databaseUrl !== ""
    ? { databaseUrl }
    : { pgliteDir: join(process.env.DATA_DIR ?? ".", "pglite") },
);
const tenantId = process.env.BENCH_TENANT ?? "bench";
const grouped = process.env.BENCH_GROUPED === "1";

type ResultRow = typeof surveyResults.$inferInsert;
const insert = async (rows: ResultRow[]) => {
  await database.db.insert(surveyResults).values(rows);
  return rows.map(() => undefined);
};
const batcher = new Batcher<ResultRow, undefined>(insert, {
  maxBatch: 200,
  maxInFlight: database.kind === "pglite" ? 1 : 2,
});

const app = Fastify({ logger: false });
app.get("/readyz", async () => ({ ready: true }));
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
  return { id: row.id };
});

process.on("SIGTERM", () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });

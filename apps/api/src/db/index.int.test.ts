import { describe, expect, inject, test } from "vitest";
import pg from "pg";
import { sql } from "drizzle-orm";
import { createTestDatabase } from "../../test/helpers.js";
import { PatientListQuerySchema, SurveyResultListQuerySchema } from "@core-care/schema";
import { listPatients } from "../services/patients.js";
import { listResultsJson } from "../services/survey-results.js";
import { rowsOf, type Execute } from "./index.js";

describe("openDatabase", () => {
  test("applies the migrations, so every table exists", async () => {
    const database = await createTestDatabase();
    try {
      const result = await database.db.execute(
        sql`select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name in ('tenants','users','user_tenants','sessions','patients','patient_surveys','surveys','survey_versions','reports','report_versions','survey_results','locations','interfaces','deliveries','awv_invitations','safety_alerts','password_resets','audit_events')`,
      );
      expect(rowsOf<{ n: number }>(result)[0]?.n).toBe(18);
    } finally {
      await database.close();
    }
  });

  test("reads a search with plain index scans and sequential scans off, and nothing else", async () => {
    const database = await createTestDatabase();
    const settings = sql`select current_setting('enable_seqscan') as seq, current_setting('enable_indexscan') as idx,
      current_setting('enable_bitmapscan') as bitmap`;
    try {
      const openBefore = database.poolState().total;
      const inSearch = await database.searchReads(async (db) => rowsOf(await db.execute(settings)));
      expect(inSearch).toEqual([{ seq: "off", idx: "off", bitmap: "on" }]);
      expect(rowsOf(await database.db.execute(settings))).toEqual([{ seq: "on", idx: "on", bitmap: "on" }]);
      // On a server the searches have connections of their own, which the pool's state counts.
      if (database.kind === "postgres") expect(database.poolState().total).toBe(openBefore + 1);
      // A failed search leaves the settings where they were.
      await expect(database.searchReads((db) => db.execute(sql`select 1 / 0`))).rejects.toThrow();
      expect(rowsOf(await database.db.execute(settings))).toEqual([{ seq: "on", idx: "on", bitmap: "on" }]);
    } finally {
      await database.close();
    }
  });
});

// Only a server can end a connection under the pool; PGlite has no second connection to do it from.
if (inject("dbKind") === "postgres") {
  describe("openDatabase on a PostgreSQL server", () => {
    test("survives the server ending an idle connection", async () => {
      const errors: Error[] = [];
      const database = await createTestDatabase({ onIdleError: (err) => errors.push(err) });
      try {
        const [{ pid } = { pid: 0 }] = rowsOf<{ pid: number }>(
          await database.db.execute(sql`select pg_backend_pid() as pid`),
        );
        const admin = new pg.Client({ connectionString: inject("databaseUrl") });
        await admin.connect();
        await admin.query("select pg_terminate_backend($1)", [pid]);
        await admin.end();
        await new Promise((resolve) => setTimeout(resolve, 200));
        const after = rowsOf<{ one: number }>(await database.db.execute(sql`select 1 as one`));
        expect(after[0]?.one).toBe(1);
        expect(errors.length).toBeGreaterThan(0);
      } finally {
        await database.close();
      }
    });

    test("plans each list page's statement once for any parameters, without parallel workers", async () => {
      const database = await createTestDatabase();
      const now = new Date();
      try {
        const openBefore = database.poolState().total;
        for (const duration of ["5", "1", "0", "5"] as const)
          await listResultsJson(
            database.db,
            "t-plans",
            SurveyResultListQuerySchema.parse({ duration }),
            now,
            database.executeList,
          );
        for (const q of [{ sort: "lastName" }, { sort: "lastName", order: "desc" }, { sort: "lastName" }])
          await listPatients(database.db, "t-plans", PatientListQuerySchema.parse(q), {
            execute: database.executeList,
          });
        // One list read at a time: the pool hands the same connection back (its last idle one).
        const on = async (execute: Execute) =>
          rowsOf<{ name: string; generic_plans: number; custom_plans: number; parallel: string }>(
            await execute(
              "plans-probe",
              sql`select name, generic_plans::int, custom_plans::int,
                current_setting('max_parallel_workers_per_gather') as parallel
                from pg_prepared_statements where name like 'results-list#%' or name like 'patients-list#%'
                order by name`,
            ),
          );
        const lists = await on(database.executeList);
        // Durations differ only in their parameters: one statement for the results; two patients orders.
        expect(lists.filter((r) => r.name.startsWith("results-list#"))).toHaveLength(1);
        expect(lists.filter((r) => r.name.startsWith("patients-list#"))).toHaveLength(2);
        expect(lists.map((r) => r.custom_plans)).toEqual([0, 0, 0]);
        expect(lists.reduce((n, r) => n + r.generic_plans, 0)).toBe(7);
        expect(new Set(lists.map((r) => r.parallel))).toEqual(new Set(["0"]));
        // The pool's state (the metrics' connections) counts the list reads' connection with the rest.
        expect(database.poolState().total).toBe(openBefore + 1);
        // The other statements keep PostgreSQL's own choice: custom plans for the first executions.
        await listResultsJson(
          database.db,
          "t-plans",
          SurveyResultListQuerySchema.parse({ duration: "5" }),
          now,
          database.execute,
        );
        const other = await on(database.execute);
        expect(other).toHaveLength(1);
        expect(other[0]).toMatchObject({ generic_plans: 0, custom_plans: 1 });
        expect(other[0]?.parallel).not.toBe("0");
      } finally {
        await database.close();
      }
    });
  });
}

// PGlite runs on a thread of its own; a server's statements run in the server's processes anyway.
if (inject("dbKind") === "pglite") {
  describe("openDatabase on PGlite", () => {
    test("runs a long statement without holding up the server's thread", async () => {
      const database = await createTestDatabase();
      try {
        let settled = false;
        const long = database.db
          .execute(sql`select count(*)::int as n from generate_series(1, 3000000)`)
          .then((result) => {
            settled = true;
            return rowsOf<{ n: number }>(result)[0]?.n;
          });
        let turns = 0;
        while (!settled) {
          await new Promise((resolve) => setImmediate(resolve));
          turns++;
        }
        expect(await long).toBe(3_000_000);
        // On the server's thread the statement would have run between two turns.
        expect(turns).toBeGreaterThan(100);
      } finally {
        await database.close();
      }
    });
  });
}

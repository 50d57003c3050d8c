import { describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase } from "../../test/helpers.js";
import { LIST_READ_OPTIONS, rowsOf, SEARCH_READ_OPTIONS } from "./index.js";

// Upgrade test of docs/decisions/013-plan-settings.md on the database itself: every setting the list
// reads and searches are opened with is one this PostgreSQL has (a renamed or removed setting would
// refuse every connection of those pools, or, set in a transaction on PGlite, fail every search), and
// with the searches' settings a search is read by bitmap scans alone (no plain index or sequential scan).
const RECORD =
  "PostgreSQL changed a setting the lists or searches rely on: see docs/decisions/013-plan-settings.md";

const settingsOf = (options: string) =>
  [...options.matchAll(/-c ([a-z_]+)=([a-z_0-9]+)/g)].map(([, name = "", value = ""]) => ({ name, value }));

describe("the plan settings on this PostgreSQL", () => {
  test("every setting the list reads and searches name exists and takes the value named", async () => {
    const database = await createTestDatabase();
    try {
      for (const { name, value } of [...settingsOf(LIST_READ_OPTIONS), ...settingsOf(SEARCH_READ_OPTIONS)]) {
        const rows = rowsOf<{ name: string; value: string }>(
          await database.db.transaction(async (tx) => {
            await tx.execute(sql`select set_config(${name}, ${value}, true)`);
            return tx.execute(sql`select name, setting as value from pg_settings where name = ${name}`);
          }),
        );
        expect(rows, `${RECORD} (${name})`).toEqual([{ name, value }]);
      }
    } finally {
      await database.close();
    }
  });

  test("with the searches' settings, a search reads the patients by bitmap scans alone", async () => {
    const database = await createTestDatabase();
    try {
      const plan = await database.searchReads(async (db) =>
        rowsOf<{ "QUERY PLAN": string }>(
          await db.execute(
            sql`explain select id from patients where tenant_id = 't-plan' and deleted_at is null
              and search_text like '%smith%'`,
          ),
        )
          .map((row) => row["QUERY PLAN"])
          .join("\n"),
      );
      expect(plan, RECORD).toContain("Bitmap Heap Scan on patients");
      expect(plan, RECORD).toContain("Bitmap Index Scan on patients_");
      expect(plan, RECORD).not.toMatch(/Seq Scan|(?<!Bitmap )Index Scan|Index Only Scan/);
    } finally {
      await database.close();
    }
  });
});

import { describe, expect, test } from "vitest";
import { fillPlaceholders, Param, Placeholder, SQL, sql, StringChunk } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

// Upgrade test of docs/decisions/011-statement-shapes.md: db/shapes.ts cuts Drizzle's built text at its
// parameters and rebuilds a flat statement from Drizzle's own chunk classes. A Drizzle release that
// renames or reshapes any of what it relies on fails here, naming the record, before a list goes wrong.
const RECORD = "Drizzle changed what db/shapes.ts relies on: see docs/decisions/011-statement-shapes.md";

describe("Drizzle's statement internals db/shapes.ts relies on", () => {
  test("exports the chunk classes and fillPlaceholders", () => {
    for (const [name, value] of Object.entries({ fillPlaceholders, Param, Placeholder, SQL, StringChunk }))
      expect(typeof value, `${RECORD} (${name} is no longer exported)`).toBe("function");
  });

  test("numbers a statement's parameters $1 to $n in order and keeps placeholders among its params", () => {
    const dialect = new PgDialect();
    const built = dialect.sqlToQuery(
      sql`select ${1} where a = ${sql.placeholder("a")} and b = ${sql.placeholder("b")} limit ${201}`,
    );
    expect(built.sql, RECORD).toBe("select $1 where a = $2 and b = $3 limit $4");
    expect(built.params[1], RECORD).toBeInstanceOf(Placeholder);
    expect(fillPlaceholders(built.params, { a: "x", b: 7 }), RECORD).toEqual([1, "x", 7, 201]);
  });

  test("builds a statement of StringChunks and Params as their text and values", () => {
    const rebuilt = new SQL([new StringChunk("select "), new Param("v"), new StringChunk(" as x")]);
    expect(new PgDialect().sqlToQuery(rebuilt), RECORD).toMatchObject({
      sql: "select $1 as x",
      params: ["v"],
    });
  });
});

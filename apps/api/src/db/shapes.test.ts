import { describe, expect, test } from "vitest";
import { and, eq, gte, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { surveyResults } from "./schema.js";
import { StatementShapes } from "./shapes.js";

const dialect = new PgDialect();

/** A statement as a list builds it: with the request's values, or with placeholders for them. */
const statement = (tenantId: unknown, since: unknown, limit: number) =>
  sql`select ${surveyResults.id} from ${surveyResults} where ${and(
    eq(surveyResults.tenantId, tenantId as string),
    gte(surveyResults.createdAt, since as Date),
  )} limit ${limit}`;

describe("StatementShapes", () => {
  test("gives the text and parameters Drizzle builds from the request's own values, building once", () => {
    const shapes = new StatementShapes();
    let builds = 0;
    const build = () => {
      builds++;
      return statement(sql.placeholder("tenantId"), sql.placeholder("since"), 201);
    };
    for (const [tenantId, since] of [
      ["t1", "2026-11-27T00:00:00.000Z"],
      ["t2", "2026-01-01T00:00:00.000Z"],
    ] as const) {
      const shaped = dialect.sqlToQuery(shapes.of("list", build, { tenantId, since }));
      const own = dialect.sqlToQuery(statement(tenantId, new Date(since), 201));
      // (Drizzle's typings are read by none of the drivers used here.)
      expect({ sql: shaped.sql, params: shaped.params }).toEqual({ sql: own.sql, params: own.params });
      expect(shaped.params).toEqual([tenantId, since, 201]);
    }
    expect(builds).toBe(1);
    // Another shape is built on its own.
    shapes.of("other", () => sql`select ${sql.placeholder("x")}`, { x: 1 });
    expect(builds).toBe(1);
  });

  test("a value is a parameter, never text of the statement", () => {
    const shapes = new StatementShapes();
    const build = () => sql`select ${sql.placeholder("q")} as q`;
    const query = dialect.sqlToQuery(shapes.of("q", build, { q: "x'); drop table patients; --" }));
    expect(query).toMatchObject({ sql: "select $1 as q", params: ["x'); drop table patients; --"] });
  });

  test("refuses a statement whose text holds $n outside its parameters, and a missing value", () => {
    const shapes = new StatementShapes();
    expect(() =>
      shapes.of("literal", () => sql`select '$1' as a, ${sql.placeholder("b")}`, { b: 1 }),
    ).toThrow(/parameters are not \$1 to \$1 in order/);
    expect(() => shapes.of("missing", () => sql`select ${sql.placeholder("b")}`, {})).toThrow(/"b"/);
  });
});

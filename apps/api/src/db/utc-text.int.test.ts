import { describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase } from "../../test/helpers.js";
import { rowsOf } from "./index.js";
import { isoOfUtcText, microsOfUtcText } from "./utc-text.js";

/**
 * Timestamps of every layout PostgreSQL writes: fractions of each length (trailing zeros are dropped),
 * none, before 1970, a leap day, years of one and five digits, and before the common era.
 */
const TIMESTAMPS = [
  "2026-11-28 17:04:05.123456+00",
  "2026-11-28 17:04:05.1+00",
  "2026-11-28 17:04:05.12+00",
  "2026-11-28 17:04:05.1234+00",
  "2026-11-28 17:04:05.000001+00",
  "2026-11-28 17:04:05.999999+00",
  "2026-11-28 17:04:05+00",
  "2026-11-28 23:59:59.5-05", // the next day in UTC
  "2024-02-29 00:00:00.25+00",
  "1969-12-31 23:59:59.999999+00",
  "1952-11-02 08:30:00.5+00",
  "1970-01-01 00:00:00+00",
  "0001-01-01 00:00:00.001+00",
  "0099-06-15 12:00:00+00", // a two-digit year, which Date.UTC would read as 1999
  "10000-01-01 00:00:00.75+00",
  "0044-03-15 12:00:00.5+00 BC",
];

describe("utcText", () => {
  test("gives what to_char and extract(epoch …) give for the same timestamp, in every layout", async () => {
    const database = await createTestDatabase();
    try {
      const rows = rowsOf<{ text: string; iso: string; micros: string }>(
        await database.db.execute(sql`select (t at time zone 'UTC')::text as text,
            to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as iso,
            (extract(epoch from t) * 1000000)::bigint::text as micros
          from unnest(string_to_array(${TIMESTAMPS.join(";")}, ';')::timestamptz[]) as t`),
      );
      expect(rows).toHaveLength(TIMESTAMPS.length);
      for (const row of rows) {
        expect({ text: row.text, iso: isoOfUtcText(row.text), micros: microsOfUtcText(row.text) }).toEqual(
          row,
        );
      }
      // The layouts the list's fast path takes and the ones it leaves to the full reading.
      expect(rows.map((row) => row.text)).toContain("2026-11-28 17:04:05");
      expect(rows.map((row) => row.text)).toContain("0044-03-15 12:00:00.5 BC");
      expect(rows.map((row) => row.text)).toContain("10000-01-01 00:00:00.75");
    } finally {
      await database.close();
    }
  });

  test("refuses text that is not a timestamp as PostgreSQL writes one", () => {
    for (const text of ["", "28/11/2026 17:04:05", "Sat Nov 28 17:04:05 2026", "2026-11-28T17:04:05Z"]) {
      expect(() => isoOfUtcText(text)).toThrow(/not a UTC timestamp/);
      expect(() => microsOfUtcText(text)).toThrow(/not a UTC timestamp/);
    }
  });
});

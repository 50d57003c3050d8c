import { count, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { TOTAL_CAP } from "@core-care/schema";
import type { DbOrTx } from "../db/index.js";
import { fieldError } from "../errors.js";

/**
 * Keyset (cursor) paging of the long lists. A cursor names a row by its sort key and says which way
 * to read from it: `next` reads the rows after it in the list's order, `prev` the rows before it. Any
 * position costs one index probe, and rows added meanwhile are neither skipped nor repeated.
 */
export interface Cursor {
  dir: "next" | "prev";
  key: string[];
}

/** An opaque, URL-safe cursor. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.dir, ...cursor.key]), "utf8").toString("base64url");
}

/** Reads a cursor of a list whose key has `arity` parts; 400 naming `cursor` when it is not one. */
export function decodeCursor(text: string, arity: number, check: (key: string[]) => boolean): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === arity + 1 &&
    (parsed[0] === "next" || parsed[0] === "prev") &&
    parsed.every((part) => typeof part === "string" && part.length <= 300)
  ) {
    const [dir, ...key] = parsed as ["next" | "prev", ...string[]];
    if (check(key)) return { dir, key };
  }
  throw fieldError("cursor", "Must be a cursor from the list's last answer.");
}

/** `(a, b, …) > (x, y, …)` or `<`: the row comparison an index on the same columns serves. */
export function after(columns: SQL[], values: SQL[], greater: boolean): SQL {
  return sql`(${sql.join(columns, sql`, `)}) ${greater ? sql`>` : sql`<`} (${sql.join(values, sql`, `)})`;
}

/**
 * The total of a list as a column of its page's own statement: the rows matching `where`, counted no
 * further than TOTAL_CAP + 1 (an uncorrelated subquery, run once), so a page costs one round trip.
 */
export function cappedCount(table: PgTable, where: SQL | undefined): SQL.Aliased<number> {
  return sql<number>`(select count(*)::int from (select 1 from ${table} where ${where ?? sql`true`} limit ${TOTAL_CAP + 1}) capped)`.as(
    "capped_total",
  );
}

/**
 * The last page number a list of `limit` rows a page answers: the pages the capped count shows, so that
 * no page number makes PostgreSQL read and drop more than TOTAL_CAP rows before its own. A million-row
 * list is read past its first TOTAL_CAP rows by cursor (`nextCursor`), one index probe at any depth.
 */
export const lastPageNumber = (limit: number): number => Math.ceil(TOTAL_CAP / limit);

/** The page number named in a refusal's words. */
const pageBeyond = (last: number) =>
  fieldError("page", `Must be at most ${last}; follow nextCursor past it.`);

/**
 * The OFFSET of page `page` of `limit` rows (0 for the first), or 400 naming `page` before any read
 * when it lies beyond {@link lastPageNumber}.
 */
export function pageOffset(page: number, limit: number): number {
  const last = lastPageNumber(limit);
  if (page > last) throw pageBeyond(last);
  return (page - 1) * limit;
}

/**
 * 400 naming `page` for a page number past the list's end (an empty page that is not the first, of a
 * list whose total is known): the page number that holds its last row is named.
 */
export function assertPageWithin(
  page: number,
  limit: number,
  rows: number,
  counted: { total: number; totalCapped: boolean },
): void {
  if (page === 1 || rows > 0 || counted.totalCapped) return;
  throw pageBeyond(Math.max(1, Math.ceil(counted.total / limit)));
}

/** `{ total, totalCapped }` of a count made by {@link cappedCount} or {@link cappedTotal}. */
export function cappedOf(n: number): { total: number; totalCapped: boolean } {
  return n > TOTAL_CAP ? { total: TOTAL_CAP, totalCapped: true } : { total: n, totalCapped: false };
}

/**
 * The total of a page read with {@link cappedCount}: on any row of it, or counted on its own when the
 * page is empty (a cursor past the end still learns the list's total). The list's condition is built
 * only then: a page with rows never needs it.
 */
export async function totalOfPage(
  db: DbOrTx,
  rows: { capped_total: number }[],
  table: PgTable,
  where: () => SQL | undefined,
): Promise<{ total: number; totalCapped: boolean }> {
  const first = rows[0];
  return first === undefined ? cappedTotal(db, table, where()) : cappedOf(first.capped_total);
}

/**
 * The total of a list, counted no further than TOTAL_CAP + 1 rows: a million-row list answers
 * `{ total: TOTAL_CAP, totalCapped: true }` after reading a thousand index entries.
 */
export async function cappedTotal(
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
): Promise<{ total: number; totalCapped: boolean }> {
  const capped = db
    .select({ one: sql`1`.as("one") })
    .from(table)
    .where(where)
    .limit(TOTAL_CAP + 1)
    .as("capped");
  const [row] = await db.select({ n: count() }).from(capped);
  return cappedOf(row?.n ?? 0);
}

/**
 * The cursors around a page read from `cursor` (or from the start, or from an offset): `limit + 1` rows
 * were asked for in reading order, so one more than `limit` says the list goes on that way.
 */
export function pageOf<R>(
  rowsInReadingOrder: R[],
  limit: number,
  cursor: Cursor | undefined,
  keyOf: (row: R) => string[],
  fromStart: boolean,
): { items: R[]; nextCursor: string | null; prevCursor: string | null } {
  const more = rowsInReadingOrder.length > limit;
  const read = rowsInReadingOrder.slice(0, limit);
  const backwards = cursor?.dir === "prev";
  const items = backwards ? read.reverse() : read;
  const first = items[0];
  const last = items.at(-1);
  const hasNext = backwards ? cursor !== undefined : more;
  const hasPrev = backwards ? more : !fromStart;
  return {
    items,
    nextCursor: hasNext && last !== undefined ? encodeCursor({ dir: "next", key: keyOf(last) }) : null,
    prevCursor: hasPrev && first !== undefined ? encodeCursor({ dir: "prev", key: keyOf(first) }) : null,
  };
}

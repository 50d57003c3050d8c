import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * A timestamp as PostgreSQL writes a UTC `timestamp` as text (`2026-11-28 17:04:05.123456`, DateStyle
 * ISO, which node-postgres needs anyway): the cheapest text a page can ask for. A list page turns it
 * into the API's ISO form and its cursor's microseconds in the API process, with string slicing: made
 * by PostgreSQL (`to_char`, and `extract(epoch …)` for the cursor) they cost about a quarter of a
 * results page's execution, for 201 rows of which the cursor needs two.
 */
export const utcText = (column: AnyPgColumn): SQL<string> =>
  sql<string>`(${column} at time zone 'UTC')::text`;

/** Date, time, fraction (up to six digits) and era, as {@link utcText} writes them. */
const LAYOUT = /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?( BC)?$/;

function parts(text: string): RegExpExecArray {
  const found = LAYOUT.exec(text);
  if (found === null) throw new Error(`not a UTC timestamp as PostgreSQL writes one (DateStyle ISO)`);
  return found;
}

/**
 * The API's form of a timestamp written by {@link utcText}: `2026-11-28T17:04:05.123Z`, milliseconds
 * cut (not rounded), as `to_char(… 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` writes it.
 */
export function isoOfUtcText(text: string): string {
  // The common case (four-digit year, AD) without a regular expression: a page formats 400 of these.
  const n = text.length;
  if (
    n >= 19 &&
    n <= 26 &&
    text.charCodeAt(4) === 45 && // "-": a four-digit year
    text.charCodeAt(10) === 32 &&
    (n === 19 || text.charCodeAt(19) === 46) && // nothing or a fraction after the seconds
    text.charCodeAt(n - 1) <= 57 // ends in a digit: not " BC"
  ) {
    const fraction = n > 20 ? text.slice(20, 23).padEnd(3, "0") : "000";
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
  }
  const [, year, month, day, hour, minute, second, fraction = ""] = parts(text);
  return `${year}-${month}-${day}T${hour}:${minute}:${second}.${fraction.slice(0, 3).padEnd(3, "0")}Z`;
}

/**
 * Microseconds since 1970-01-01 UTC of a timestamp written by {@link utcText}, as decimal text: the
 * keyset cursor's key, exact (a JavaScript Date keeps milliseconds only).
 */
export function microsOfUtcText(text: string): string {
  const [, year, month, day, hour, minute, second, fraction = "", bc] = parts(text);
  const date = new Date(0);
  // setUTCFullYear, since Date.UTC reads years 0-99 as 1900-1999; year 1 BC is year 0.
  date.setUTCFullYear(bc === undefined ? Number(year) : 1 - Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), 0);
  // BigInt: microseconds pass 2^53 some 285 years from 1970.
  return String(BigInt(date.getTime()) * 1000n + BigInt(fraction.padEnd(6, "0")));
}

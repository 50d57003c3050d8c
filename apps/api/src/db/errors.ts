/** True for a PostgreSQL unique violation (SQLSTATE 23505), however the driver wraps it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; typeof e === "object" && e !== null && depth < 4; depth++) {
    if ((e as { code?: unknown }).code === "23505") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Socket failures of a connection to the database server. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
]);

/**
 * PostgreSQL SQLSTATEs of a server that cannot serve now: connection exceptions (class 08), too many
 * connections (53300), and a server shutting down or starting (57P01-57P03).
 */
const UNAVAILABLE_STATES = /^(08...|53300|57P0[123])$/;

/** What node-postgres and the embedded database's thread say when there is no database to talk to. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client has encountered a connection error|the PGlite thread stopped|Connection refused/i;

/**
 * True when a query failed because the database could not be reached or is shutting down, not because
 * of the statement: the request may succeed if retried later (answered 503 with Retry-After).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; typeof e === "object" && e !== null && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || UNAVAILABLE_STATES.test(code)))
      return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True when the server cancelled a statement that ran past its `statement_timeout` (SQLSTATE 57014): a
 * list read too expensive now (answered 503 with Retry-After, never 500).
 */
export function isStatementTimeout(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; typeof e === "object" && e !== null && depth < 4; depth++) {
    if ((e as { code?: unknown }).code === "57014") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

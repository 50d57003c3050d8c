import { fillPlaceholders, Param, SQL, StringChunk } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

const dialect = new PgDialect();

interface Built {
  /** The statement's text cut at its parameters: text, parameter number, text, … */
  parts: string[];
  /** Drizzle's parameters, placeholders among them. */
  params: unknown[];
}

/**
 * Statements built once per shape of a query (which filters, which direction: whatever changes the
 * text), with `sql.placeholder`s where a request's values go. Each request then gets a flat statement
 * of the built text and its own values. Drizzle builds a nested statement such as a list page's anew
 * each time it is asked, walking every fragment of it: a third of the API's CPU for a short list.
 */
export class StatementShapes {
  private readonly built = new Map<string, Built>();

  /** The statement of `shape` with `values` for its placeholders; `build` makes it the first time. */
  of(shape: string, build: () => SQL, values: Record<string, unknown>): SQL {
    let statement = this.built.get(shape);
    if (statement === undefined) {
      statement = cut(build());
      this.built.set(shape, statement);
    }
    const filled = fillPlaceholders(statement.params, values);
    return new SQL(
      statement.parts.map((part, i) =>
        i % 2 === 0 ? new StringChunk(part) : new Param(filled[Number(part) - 1]),
      ),
    );
  }
}

/** The built statement's text cut at its parameters, which Drizzle numbers $1, $2, … in order. */
function cut(statement: SQL): Built {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const parts = text.split(/\$(\d+)/);
  const numbers = parts.filter((_, i) => i % 2 === 1).map(Number);
  // A "$n" anywhere else (in a literal) would be taken for a parameter: such a statement is refused.
  if (numbers.length !== params.length || numbers.some((n, i) => n !== i + 1))
    throw new Error(`a shaped statement's parameters are not $1 to $${params.length} in order: ${text}`);
  return { parts, params };
}

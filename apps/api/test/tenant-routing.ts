import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { loadModule, parseSync } from "libpg-query";
import * as schema from "../src/db/schema.js";

/**
 * Tables replicated to every node on Citus (reference tables) although they carry `tenant_id`:
 * memberships are looked up by user across the user's practices at sign-in and tenant switch, and
 * survey definitions are shared across practices (a practice may subscribe to another's survey, and
 * results pin the version they were taken on). Both are small and read far more than written.
 */
export const REFERENCE_TABLES: ReadonlySet<string> = new Set(["user_tenants", "surveys", "survey_versions"]);

/**
 * Tables distributed by tenant (they carry `tenant_id`): on Citus each tenant's rows of all of them
 * live on one shard, so a statement routes to one node exactly when it pins each of them to a tenant.
 */
export const TENANT_TABLES: ReadonlySet<string> = new Set(
  (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => value instanceof PgTable)
    .map((table) => getTableConfig(table))
    .filter((config) => config.columns.some((column) => column.name === "tenant_id"))
    .map((config) => config.name)
    .filter((name) => !REFERENCE_TABLES.has(name)),
);

/**
 * Statements that span tenants by design, each with why and how it runs on Citus (docs/scaling.md).
 * Matched on the statement's text; keep each as narrow as the statement.
 */
export const CROSS_TENANT_STATEMENTS: readonly { pattern: RegExp; why: string }[] = [
  {
    pattern: /^select tenant_id, interface_id, count\(\*\)::int as depth from deliveries/,
    why: "metrics: the delivery queue of every tenant, read at scrape time (one query per shard, in parallel)",
  },
  {
    pattern:
      /^select tenant_id, interface_id, held from \(\s*select distinct on \(tenant_id, interface_id\) tenant_id, interface_id,/,
    why: "metrics: how long each stalled queue of every tenant has been held, read at scrape time (one query per shard, in parallel)",
  },
  {
    pattern:
      /^update "deliveries" set [\s\S]* in \(\(?select "tenant_id", "id" from "deliveries" [\s\S]*for update skip locked\)/,
    why: "the delivery worker claims due deliveries of every tenant (run on every shard; each claimed row is then handled by its tenant)",
  },
  {
    pattern:
      /^select distinct "claimed_by" from "deliveries" where \("deliveries"\."status" = \$1 and "deliveries"\."claimed_by" like \$2\)$/,
    why: "the delivery worker looks for sends left by a stopped process of its machine, in every tenant (run on every shard)",
  },
  {
    pattern:
      /^update "deliveries" set [\s\S]* where \("deliveries"\."status" = \$\d+ and "deliveries"\."claimed_by" in \([$\d, ]+\)\)$/,
    why: "the delivery worker takes back the sends of a stopped process of its machine, in every tenant (run on every shard)",
  },
  {
    pattern:
      /^select distinct "tenant_id" from "deliveries" where \("deliveries"\."status" = \$1 and "deliveries"\."updated_at" <= \$2\)$/,
    why: "the stall check looks for practices with a failed delivery older than the stall minutes, once a minute (run on every shard; each practice's queues are then read in that practice)",
  },
  {
    pattern: /^(select|update) [\s\S]* where \(?"(awv_invitations|user_invitations)"\."token_hash" = \$\d/,
    why: "an e-mailed link's token (Tele-AWV, a user invitation) names its row before any tenant is known (one unique-index probe per shard)",
  },
  {
    pattern:
      /^update "tablet_handovers" set [\s\S]* where \("tablet_handovers"\."ended_at" is null and "tablet_handovers"\."created_at" < now\(\)/,
    why: "the sweep that ends idle tablet hand-overs of every practice (run on every shard)",
  },
  {
    pattern:
      /^update "awv_invitations" set "draft_answers" = [\s\S]* where \("awv_invitations"\."draft_answers" is not null and "awv_invitations"\."expires_at" <= \$\d+\)/,
    why: "the sweep that clears the drafts of Tele-AWV links that expired unsubmitted, in every practice (run on every shard)",
  },
  {
    pattern: /^\s*with\s+input as materialized\s*\(\s*select \* from jsonb_to_recordset\(\$1::jsonb\)/,
    why: "survey-result saves written together (group commit) may be several tenants'; every row joins on its own tenant_id",
  },
  {
    pattern:
      /^\s*UPDATE "survey_results" r SET "patient_first_name" = p\."first_name", [\s\S]* FROM "patients" p WHERE p\."tenant_id" = r\."tenant_id" AND p\."id" = r\."patient_id";$/,
    why: "migration 0014 copies every result's patient onto it once; each result joins its own tenant's patient (co-located, run on every shard)",
  },
];

/** The statements this test file's databases were sent (test/helpers.ts records them). */
export const capturedStatements = new Set<string>();

type Node = Record<string, unknown>;
interface Relation {
  name: string;
  /** How the statement refers to it: its alias, or its name. */
  ref: string;
}

const isObject = (value: unknown): value is Node => typeof value === "object" && value !== null;
const nodeOf = (value: unknown, type: string): Node | undefined =>
  isObject(value) && isObject(value[type]) ? value[type] : undefined;

/** The names of a ColumnRef (`["p", "tenant_id"]`), or undefined for anything else. */
function columnOf(value: unknown): string[] | undefined {
  const ref = nodeOf(value, "ColumnRef");
  if (ref === undefined) return undefined;
  return (ref.fields as unknown[]).map(
    (field) => (nodeOf(field, "String")?.sval as string | undefined) ?? "*",
  );
}

/** A value fixed for the whole statement: a parameter, a constant, or a cast of one. */
function isFixed(value: unknown): boolean {
  if (nodeOf(value, "ParamRef") !== undefined || nodeOf(value, "A_Const") !== undefined) return true;
  const cast = nodeOf(value, "TypeCast");
  return cast !== undefined && isFixed(cast.arg);
}

/** The relations a scope reads or writes directly (through joins, not into subqueries). */
function relationsOf(items: unknown[], into: Relation[], quals: unknown[]): void {
  for (const item of items) {
    const range = nodeOf(item, "RangeVar");
    if (range !== undefined) {
      const name = range.relname as string;
      const alias = nodeOf(range, "alias")?.aliasname ?? (range.alias as Node | undefined)?.aliasname;
      into.push({ name, ref: (alias as string | undefined) ?? name });
      continue;
    }
    const join = nodeOf(item, "JoinExpr");
    if (join !== undefined) {
      relationsOf([join.larg, join.rarg], into, quals);
      if (join.quals !== undefined) quals.push(join.quals);
    }
  }
}

/** The equalities a condition requires (through AND, never through OR or NOT). */
function equalitiesOf(condition: unknown, into: [unknown, unknown][]): void {
  const bool = nodeOf(condition, "BoolExpr");
  if (bool !== undefined) {
    if (bool.boolop === "AND_EXPR") for (const arg of bool.args as unknown[]) equalitiesOf(arg, into);
    return;
  }
  const expr = nodeOf(condition, "A_Expr");
  const operator = (expr?.name as unknown[] | undefined)?.map((n) => nodeOf(n, "String")?.sval).join("");
  if (expr !== undefined && expr.kind === "AEXPR_OP" && operator === "=") into.push([expr.lexpr, expr.rexpr]);
}

/** A tenant column of an enclosing query's relation (no alias can be spelt so). */
const OUTER = "(outer query)";

/** The tenant-owned relations of one scope that no condition pins to one tenant. */
function unpinned(relations: Relation[], conditions: unknown[]): Relation[] {
  const owned = relations.filter((r) => TENANT_TABLES.has(r.name));
  if (owned.length === 0) return [];
  const equalities: [unknown, unknown][] = [];
  for (const condition of conditions) equalitiesOf(condition, equalities);
  const scopeRefs = new Set(relations.map((r) => r.ref));
  /** The relation a `tenant_id` column names: its qualifier, or the scope's one tenant table. */
  const tenantColumnOf = (value: unknown): string | undefined => {
    const names = columnOf(value);
    if (names === undefined || names[names.length - 1] !== "tenant_id") return undefined;
    if (names.length === 1) return owned.length === 1 ? owned[0]!.ref : undefined;
    const qualifier = names[names.length - 2]!;
    // A correlated subquery's condition on the enclosing statement's tenant: pinned there.
    return scopeRefs.has(qualifier) ? qualifier : OUTER;
  };
  const pinned = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [left, right] of equalities) {
      for (const [a, b] of [
        [left, right],
        [right, left],
      ]) {
        const column = tenantColumnOf(a);
        if (column === undefined || column === OUTER || pinned.has(column)) continue;
        const other = tenantColumnOf(b);
        if (isFixed(b) || other === OUTER || (other !== undefined && pinned.has(other))) {
          pinned.add(column);
          grew = true;
        }
      }
    }
  }
  return owned.filter((r) => !pinned.has(r.ref));
}

/** Every tenant-owned relation of a statement's scopes (selects, updates, deletes) left unpinned. */
function unpinnedInStatement(node: unknown, found: string[]): void {
  if (Array.isArray(node)) {
    for (const item of node) unpinnedInStatement(item, found);
    return;
  }
  if (!isObject(node)) return;
  for (const [type, value] of Object.entries(node)) {
    if (!isObject(value)) {
      continue;
    }
    const relations: Relation[] = [];
    const conditions: unknown[] = [];
    if (type === "SelectStmt" && (value.larg !== undefined || value.rarg !== undefined)) {
      // A UNION's arms are scopes of their own (typed fields, so not wrapped in their node type).
      unpinnedInStatement([{ SelectStmt: value.larg }, { SelectStmt: value.rarg }], found);
      continue;
    }
    if (type === "SelectStmt") {
      relationsOf((value.fromClause as unknown[] | undefined) ?? [], relations, conditions);
      if (value.whereClause !== undefined) conditions.push(value.whereClause);
    } else if (type === "UpdateStmt" || type === "DeleteStmt") {
      relationsOf(
        [value.relation, ...((value.fromClause ?? value.usingClause ?? []) as unknown[])].map((r) =>
          nodeOf(r, "RangeVar") !== undefined || nodeOf(r, "JoinExpr") !== undefined ? r : { RangeVar: r },
        ),
        relations,
        conditions,
      );
      if (value.whereClause !== undefined) conditions.push(value.whereClause);
    } else if (type === "InsertStmt") {
      const relation = value.relation as Node;
      const columns = ((value.cols as unknown[] | undefined) ?? []).map(
        (col) => nodeOf(col, "ResTarget")?.name as string | undefined,
      );
      // An insert goes to the shard of the tenant_id it writes.
      if (TENANT_TABLES.has(relation.relname as string) && !columns.includes("tenant_id")) {
        found.push(relation.relname as string);
      }
    }
    for (const relation of unpinned(relations, conditions)) found.push(relation.name);
    unpinnedInStatement(value, found);
  }
}

/**
 * The statements among `statements` that would not route to one shard: each with the tenant-owned
 * tables it reads or writes without pinning them to a tenant. Schema changes (migrations), session
 * commands and the exceptions of {@link CROSS_TENANT_STATEMENTS} are not judged.
 */
export async function unroutedStatements(statements: Iterable<string>): Promise<string[]> {
  await loadModule();
  const problems: string[] = [];
  for (const text of statements) {
    if (CROSS_TENANT_STATEMENTS.some(({ pattern }) => pattern.test(text))) continue;
    let parsed: { stmts?: { stmt: Node }[] };
    try {
      parsed = parseSync(text) as typeof parsed;
    } catch {
      continue; // not SQL PostgreSQL would run either: the test that sent it sees its error
    }
    for (const { stmt } of parsed.stmts ?? []) {
      const type = Object.keys(stmt)[0] ?? "";
      if (!["SelectStmt", "InsertStmt", "UpdateStmt", "DeleteStmt"].includes(type)) continue;
      const found: string[] = [];
      unpinnedInStatement(stmt, found);
      if (found.length > 0) {
        problems.push(`${[...new Set(found)].join(", ")}: ${text.replace(/\s+/g, " ").slice(0, 300)}`);
      }
    }
  }
  return problems;
}

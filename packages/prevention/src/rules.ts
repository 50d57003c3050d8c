import { checkRulesTable } from "./check-table.js";
import raw from "./rules.json" with { type: "json" };
import type { RulesTable } from "./table.js";

function builtIn(): RulesTable {
  const { table, issues } = checkRulesTable(raw);
  if (!table) throw new Error(`rules.json: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  return table;
}

/** The built-in rules table (`rules.json`), checked when the module loads. */
export const RULES: RulesTable = builtIn();

/** One difference between two versions of a document. */
export interface DiffEntry {
  path: string;
  change: "added" | "removed" | "changed";
  before?: string;
  after?: string;
}

type Json = unknown;

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasIds(list: readonly Json[]): list is Record<string, Json>[] {
  return list.length > 0 && list.every((item) => isRecord(item) && typeof item.id === "string");
}

function show(value: Json): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

function walk(path: string, before: Json, after: Json, out: DiffEntry[]): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) {
    out.push({ path, change: "added", after: show(after) });
    return;
  }
  if (after === undefined) {
    out.push({ path, change: "removed", before: show(before) });
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && (before.length === 0 || hasIds(before))) {
    if (after.length === 0 || hasIds(after)) {
      const beforeById = new Map((before as Record<string, Json>[]).map((item) => [item.id as string, item]));
      const afterById = new Map((after as Record<string, Json>[]).map((item) => [item.id as string, item]));
      const sharedBefore = [...beforeById.keys()].filter((id) => afterById.has(id));
      const sharedAfter = [...afterById.keys()].filter((id) => beforeById.has(id));
      if (sharedBefore.join() !== sharedAfter.join()) {
        out.push({
          path: `${path} (order)`,
          change: "changed",
          before: sharedBefore.join(", "),
          after: sharedAfter.join(", "),
        });
      }
      for (const [id, item] of beforeById) walk(`${path}[${id}]`, item, afterById.get(id), out);
      for (const [id, item] of afterById)
        if (!beforeById.has(id)) walk(`${path}[${id}]`, undefined, item, out);
      return;
    }
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    for (let i = 0; i < length; i++) walk(`${path}[${i}]`, before[i], after[i], out);
    return;
  }
  if (isRecord(before) && isRecord(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) walk(join(path, key), before[key], after[key], out);
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) {
    out.push({ path, change: "changed", before: show(before), after: show(after) });
  }
}

/**
 * The differences between two versions of a survey or report, leaf by leaf. Lists of items with an
 * `id` (pages, questions, sections) are matched by id, so a moved page shows as an order change rather
 * than as every page changed. The `version` field itself is left out.
 */
export function diffDocuments(before: Json, after: Json): DiffEntry[] {
  const out: DiffEntry[] = [];
  const strip = (value: Json) => {
    if (!isRecord(value)) return value;
    const { version: _version, ...rest } = value;
    return rest;
  };
  walk("", strip(before), strip(after), out);
  return out;
}

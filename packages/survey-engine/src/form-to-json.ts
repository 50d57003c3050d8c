import { isUnsafeKey } from "./answers.js";

type Json = Record<string, unknown>;

function parseName(name: string): string[] | undefined {
  const segments: string[] = [];
  const pattern = /([^.[\]]+)|\[(\d*)\]/g;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = pattern.exec(name)) !== null) {
    const between = name.slice(consumed, match.index);
    if (between !== "" && between !== ".") return undefined;
    segments.push(match[1] ?? match[2] ?? "");
    consumed = match.index + match[0].length;
  }
  if (consumed !== name.length || segments.length === 0 || segments.some(isUnsafeKey)) return undefined;
  return segments;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

function assign(root: Json, segments: readonly string[], value: unknown): void {
  let node: Record<string, unknown> | unknown[] = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const last = i === segments.length - 1;
    const nextSegment = segments[i + 1];
    const wantsArray = nextSegment !== undefined && /^\d*$/.test(nextSegment);
    if (Array.isArray(node) && segment === "") {
      if (last) {
        node.push(value);
        return;
      }
      const child: Record<string, unknown> | unknown[] = wantsArray ? [] : {};
      node.push(child);
      node = child;
      continue;
    }
    const container = node as Record<string, unknown>;
    if (last) {
      const existing = Object.hasOwn(container, segment) ? container[segment] : undefined;
      if (existing === undefined) container[segment] = value;
      else if (Array.isArray(existing)) existing.push(value);
      else container[segment] = [existing, value];
      return;
    }
    let child = Object.hasOwn(container, segment) ? container[segment] : undefined;
    if (child === null || typeof child !== "object") {
      child = wantsArray ? [] : {};
      container[segment] = child;
    }
    node = child as Record<string, unknown> | unknown[];
  }
}

/**
 * Builds nested JSON from form fields (SPEC 3, 5): `a.b` and `a[0].c` nest, `a[]` appends, a name given
 * twice collects its values in a list. Blank values (empty or whitespace-only text) are omitted; names that
 * are malformed or reach an object prototype (`__proto__`) are ignored. Array indexes keep their position.
 */
export function formToJson(pairs: Iterable<readonly [string, unknown]>): Json {
  const result: Json = {};
  for (const [name, value] of pairs) {
    if (isBlank(value)) continue;
    const segments = parseName(name);
    if (segments !== undefined) assign(result, segments, value);
  }
  return result;
}

/** The inverse of `formToJson`: one `[name, value]` pair per leaf, arrays written as `name[i]`. */
export function jsonToForm(json: unknown, prefix = ""): Array<[string, unknown]> {
  const pairs: Array<[string, unknown]> = [];
  if (Array.isArray(json)) {
    json.forEach((item, index) => pairs.push(...jsonToForm(item, `${prefix}[${index}]`)));
  } else if (json !== null && typeof json === "object") {
    for (const [key, value] of Object.entries(json)) {
      pairs.push(...jsonToForm(value, prefix === "" ? key : `${prefix}.${key}`));
    }
  } else if (prefix !== "") {
    pairs.push([prefix, json]);
  }
  return pairs;
}

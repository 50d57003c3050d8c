import type { Answers } from "./types.js";

const UNSAFE_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/** Splits `a.b[0].c` or `a.b.0.c` into `['a', 'b', '0', 'c']`. */
export function splitPath(path: string): string[] {
  return path
    .replace(/\[(\d*)\]/g, ".$1")
    .split(".")
    .filter((segment) => segment !== "");
}

/** True for keys that would reach an object's prototype; paths holding one are never read or written. */
export function isUnsafeKey(key: string): boolean {
  return UNSAFE_KEYS.has(key);
}

/** Reads the value at a dotted path (`pain.hadPain`, `members.0.name`); undefined when any step is missing. */
export function getAnswer(answers: unknown, path: string): unknown {
  return readSegments(answers, splitPath(path));
}

/** Reads the value at already split path segments; own properties only. */
export function readSegments(root: unknown, segments: readonly string[]): unknown {
  let current = root;
  for (const segment of segments) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * Returns a copy of `answers` with `value` at the dotted path, copying only the objects along the path.
 * `undefined` removes the answer. Numeric segments create arrays. Unsafe keys leave `answers` unchanged.
 */
export function setAnswer(answers: Answers, path: string, value: unknown): Answers {
  const segments = splitPath(path);
  if (segments.length === 0 || segments.some(isUnsafeKey)) return answers;
  if (value === undefined && !hasPath(answers, segments)) return answers;
  return writeAt(answers, segments, 0, value) as Answers;
}

function hasPath(root: unknown, segments: readonly string[]): boolean {
  const parent = readSegments(root, segments.slice(0, -1));
  return parent !== null && typeof parent === "object" && Object.hasOwn(parent, segments.at(-1) as string);
}

function writeAt(node: unknown, segments: readonly string[], index: number, value: unknown): unknown {
  const key = segments[index] as string;
  const last = index === segments.length - 1;
  const isIndex = /^\d+$/.test(key);
  let copy: Record<string, unknown> | unknown[];
  if (Array.isArray(node)) copy = node.slice();
  else if (node !== null && typeof node === "object") copy = { ...(node as Record<string, unknown>) };
  else copy = isIndex ? [] : {};
  const target = copy as Record<string, unknown>;
  if (last) {
    if (value === undefined) {
      if (Array.isArray(copy) && isIndex) copy[Number(key)] = undefined;
      else delete target[key];
    } else {
      target[key] = value;
    }
    return copy;
  }
  const child = Object.hasOwn(target, key) ? target[key] : undefined;
  target[key] = writeAt(child, segments, index + 1, value);
  return copy;
}

/**
 * The answers that `setAnswer` would make of these paths and values written one after another from `{}`,
 * built in place: for many answers at once (a row of an upload), where copying along each path would cost
 * the square of their number. The same paths (`a.b`, `a.0.b`, `a[0].b`; numeric segments make arrays) and
 * the same guard: a path holding an unsafe key, and an `undefined` value, are left out.
 */
export function answersFromEntries(entries: Iterable<readonly [path: string, value: unknown]>): Answers {
  const root: Record<string, unknown> = {};
  for (const [path, value] of entries) {
    const segments = splitPath(path);
    if (segments.length === 0 || segments.some(isUnsafeKey) || value === undefined) continue;
    let node = root;
    for (let i = 0; i < segments.length - 1; i++) {
      const key = segments[i] as string;
      const child = Object.hasOwn(node, key) ? node[key] : undefined;
      if (child !== null && typeof child === "object") node = child as Record<string, unknown>;
      else {
        const made = /^\d+$/.test(segments[i + 1] as string) ? [] : {};
        node[key] = made;
        node = made;
      }
    }
    node[segments.at(-1) as string] = value;
  }
  return root;
}

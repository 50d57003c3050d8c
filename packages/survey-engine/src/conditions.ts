import { isUnsafeKey, readSegments, splitPath } from "./answers.js";
import type { Condition, ConditionAction, EvalContext } from "./types.js";

/** The one list of condition actions, shared by designers and the evaluator. */
export const CONDITION_ACTIONS: readonly ConditionAction[] = [
  "Equals",
  "Not Equals",
  "Greater Than",
  "Less Than",
  "Has Response",
  "One Of",
];

const ACTION_KEYS: ReadonlyMap<string, ConditionAction> = new Map(
  CONDITION_ACTIONS.map((action) => [actionKey(action), action]),
);

function actionKey(action: string): string {
  return action.toLowerCase().replace(/[\s_-]+/g, "");
}

/**
 * The canonical spelling of an action, whatever its case or spacing (`Greater than`, `has response`,
 * `NOT_EQUALS`); undefined for an unknown action.
 */
export function normalizeAction(action: string): ConditionAction | undefined {
  return typeof action === "string" ? ACTION_KEYS.get(actionKey(action)) : undefined;
}

/**
 * False for undefined, null, blank or whitespace-only text, an empty list and an object none of whose
 * values is a response; true for anything else, including 0 and false.
 */
export function hasResponse(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.some(hasResponse);
  if (typeof value === "object") return Object.values(value).some(hasResponse);
  return true;
}

type Primitive = string | number | boolean | bigint;

function isComparable(value: unknown): value is Primitive {
  const type = typeof value;
  return type === "number" || type === "string" || type === "boolean" || type === "bigint";
}

// JavaScript's relational comparison of raw values: two strings by code units, anything else as numbers.
function compareRaw(answer: unknown, expected: unknown): number {
  if (!hasResponse(answer) || !isComparable(answer) || !isComparable(expected)) return Number.NaN;
  if (typeof answer === "string" && typeof expected === "string") {
    return answer === expected ? 0 : answer > expected ? 1 : -1;
  }
  return Number(answer) - Number(expected);
}

type Getter = (context: EvalContext) => unknown;
type Predicate = (context: EvalContext) => boolean;

// Keys no object or list inherits, so a plain property read cannot reach a prototype.
function isPlainKey(key: string): boolean {
  return !isUnsafeKey(key) && !(key in Object.prototype) && !(key in Array.prototype);
}

function read(node: unknown, key: string): unknown {
  return node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
}

function makeGetter(fieldName: string): Getter {
  if (fieldName === "sex") return (context) => context.sex;
  if (fieldName === "age") return (context) => context.age;
  const segments = splitPath(fieldName);
  if (segments.length === 0) return () => undefined;
  if (segments[0] === "tenant" && segments.length > 1) {
    const rest = segments.slice(1);
    return (context) => readSegments(context.tenant, rest);
  }
  if (!segments.every(isPlainKey)) return (context) => readSegments(context.answers, segments);
  const [first, second, third] = segments as [string, string, string];
  switch (segments.length) {
    case 1:
      return (context) => read(context.answers, first);
    case 2:
      return (context) => read(read(context.answers, first), second);
    case 3:
      return (context) => read(read(read(context.answers, first), second), third);
    default:
      return (context) => segments.reduce<unknown>(read, context.answers);
  }
}

function makePredicate(condition: Condition): Predicate {
  const action = normalizeAction(condition.action);
  if (action === undefined || typeof condition.fieldName !== "string") return () => false;
  const get = makeGetter(condition.fieldName);
  const expected = condition.fieldValue;
  switch (action) {
    case "Equals":
      return (context) => get(context) === expected;
    case "Not Equals":
      return (context) => get(context) !== expected;
    case "Greater Than":
      return (context) => {
        const answer = get(context);
        return typeof answer === "number" && typeof expected === "number"
          ? answer > expected
          : compareRaw(answer, expected) > 0;
      };
    case "Less Than":
      return (context) => {
        const answer = get(context);
        return typeof answer === "number" && typeof expected === "number"
          ? answer < expected
          : compareRaw(answer, expected) < 0;
      };
    case "Has Response":
      return (context) => {
        const answer = get(context);
        return typeof answer === "string" ? answer.trim() !== "" : hasResponse(answer);
      };
    case "One Of": {
      const options: readonly unknown[] = Array.isArray(expected) ? expected : [expected];
      return (context) => {
        const answer = get(context);
        if (!hasResponse(answer)) return false;
        return Array.isArray(answer)
          ? answer.some((item) => options.includes(item))
          : options.includes(answer);
      };
    }
  }
}

function allOf(predicates: readonly Predicate[]): Predicate {
  const [a, b, c, d, e] = predicates as [Predicate, Predicate, Predicate, Predicate, Predicate];
  switch (predicates.length) {
    case 0:
      return () => true;
    case 1:
      return a;
    case 2:
      return (context) => a(context) && b(context);
    case 3:
      return (context) => a(context) && b(context) && c(context);
    case 4:
      return (context) => a(context) && b(context) && c(context) && d(context);
    case 5:
      return (context) => a(context) && b(context) && c(context) && d(context) && e(context);
    default:
      return (context) => {
        for (const predicate of predicates) if (!predicate(context)) return false;
        return true;
      };
  }
}

/**
 * Compiles a condition list into a function of the context, for evaluating the same list many times.
 * Each condition's `joinType` joins it to the one before it (the first one's is ignored); `and` binds
 * tighter than `or`; an empty list holds.
 */
export function compileConditions(conditions: readonly Condition[]): Predicate {
  const groups: Predicate[][] = [];
  let current: Predicate[] = [];
  conditions.forEach((condition, index) => {
    if (index > 0 && String(condition.joinType).toLowerCase() === "or") {
      groups.push(current);
      current = [];
    }
    current.push(makePredicate(condition));
  });
  groups.push(current);
  const alternatives = groups.map(allOf);
  if (alternatives.length === 1) return alternatives[0] as Predicate;
  return (context) => {
    for (const alternative of alternatives) if (alternative(context)) return true;
    return false;
  };
}

interface CacheEntry {
  predicate: Predicate;
  conditions: Condition[];
}

const cache = new WeakMap<readonly Condition[], CacheEntry>();

function isCurrent(compiled: readonly Condition[], conditions: readonly Condition[]): boolean {
  const count = conditions.length;
  if (compiled.length !== count) return false;
  for (let i = 0; i < count; i++) if (compiled[i] !== conditions[i]) return false;
  return true;
}

/**
 * True when the list holds in the context (see `compileConditions` for how joins combine). The compiled
 * form is cached per list and rebuilt when the list's length or any of its condition objects changes, so
 * edit conditions by replacing them (`list[i] = { ...list[i], fieldValue }`), never in place.
 */
export function evaluateConditions(
  conditions: readonly Condition[] | undefined,
  context: EvalContext,
): boolean {
  if (conditions === undefined || conditions.length === 0) return true;
  let entry = cache.get(conditions);
  if (entry === undefined || !isCurrent(entry.conditions, conditions)) {
    entry = { predicate: compileConditions(conditions), conditions: conditions.slice() };
    cache.set(conditions, entry);
  }
  return entry.predicate(context);
}

/**
 * True when one condition holds. Equals and Not Equals compare strictly (`'1'` is not `1`); Greater Than and
 * Less Than compare raw values (two strings as text, otherwise as numbers) and are false with no response;
 * Has Response is false for undefined, null, blank text and an empty list; One Of holds when the answer, or
 * an item of a list answer, is in `fieldValue` (a list). An unknown action never holds.
 */
export function evaluateCondition(condition: Condition, context: EvalContext): boolean {
  return makePredicate(condition)(context);
}

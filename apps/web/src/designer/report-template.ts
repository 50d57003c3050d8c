/**
 * The report markup language: HTML with `{{path}}` (the value at a dotted path, HTML-escaped),
 * `{{#each path}}…{{/each}}` (repeats with each item as the scope; `{{.}}` is the item, `{{@index}}`
 * its 0-based position), `{{#if path}}…{{else}}…{{/if}}` (an empty list counts as false) and
 * `{{#unless path}}…{{/unless}}`. Paths are looked up in the current scope, then in the outer ones.
 * Nothing the data holds is ever inserted as markup.
 */
import { toText } from "../ui/form";

type Node =
  | { kind: "text"; text: string }
  | { kind: "value"; path: string }
  | { kind: "each" | "if" | "unless"; path: string; body: Node[]; otherwise: Node[] };

const TAG = /\{\{\s*([#/]?)(each|if|unless|else)?\s*([^}]*?)\s*\}\}/g;

/** A problem with the markup's blocks, e.g. an `{{#each}}` never closed. */
export class TemplateError extends Error {
  override name = "TemplateError";
}

/** The rendered report would be longer than its limit; rendering stopped there. */
export class OutputTooLargeError extends Error {
  override name = "OutputTooLargeError";
  constructor(readonly limit: number) {
    super(`The report's output is longer than ${limit} characters.`);
  }
}

/** The characters of rendered text left before the limit. */
interface Budget {
  left: number;
  readonly limit: number;
}

function spend(budget: Budget, text: string): string {
  budget.left -= text.length;
  if (budget.left < 0) throw new OutputTooLargeError(budget.limit);
  return text;
}

function parse(markup: string): Node[] {
  const root: Node[] = [];
  const stack: { node: Extract<Node, { body: Node[] }>; inElse: boolean }[] = [];
  const target = () => {
    const top = stack[stack.length - 1];
    if (!top) return root;
    return top.inElse ? top.node.otherwise : top.node.body;
  };
  let last = 0;
  for (const match of markup.matchAll(TAG)) {
    const [whole, sigil = "", keyword, rest = ""] = match;
    const index = match.index;
    if (index > last) target().push({ kind: "text", text: markup.slice(last, index) });
    last = index + whole.length;
    if (sigil === "#" && (keyword === "each" || keyword === "if" || keyword === "unless")) {
      const node = { kind: keyword, path: rest, body: [], otherwise: [] } as Extract<Node, { body: Node[] }>;
      target().push(node);
      stack.push({ node, inElse: false });
    } else if (sigil === "/" && (keyword === "each" || keyword === "if" || keyword === "unless")) {
      const top = stack.pop();
      if (!top || top.node.kind !== keyword) throw new TemplateError(`Unexpected {{/${keyword}}}.`);
    } else if (sigil === "" && keyword === "else" && rest === "") {
      const top = stack[stack.length - 1];
      if (!top) throw new TemplateError("{{else}} outside a block.");
      top.inElse = true;
    } else {
      target().push({ kind: "value", path: `${keyword ?? ""}${keyword && rest ? " " : ""}${rest}`.trim() });
    }
  }
  if (last < markup.length) target().push({ kind: "text", text: markup.slice(last) });
  const open = stack[stack.length - 1];
  if (open) throw new TemplateError(`{{#${open.node.kind} ${open.node.path}}} is not closed.`);
  return root;
}

/** Text with the five HTML-special characters escaped. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

interface Scope {
  value: unknown;
  index?: number;
}

function lookup(path: string, scopes: readonly Scope[]): unknown {
  const innermost = scopes[scopes.length - 1];
  if (path === "." || path === "this") return innermost?.value;
  if (path === "@index") return innermost?.index;
  const segments = path.replace(/^this\./, "").split(".");
  for (let i = scopes.length - 1; i >= 0; i--) {
    let current: unknown = scopes[i]?.value;
    let found = true;
    for (const segment of segments) {
      if (typeof current === "object" && current !== null && segment in current) {
        current = (current as Record<string, unknown>)[segment];
      } else {
        found = false;
        break;
      }
    }
    if (found) return current;
  }
  return undefined;
}

function truthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

function render(nodes: readonly Node[], scopes: Scope[], budget: Budget): string {
  let out = "";
  for (const node of nodes) {
    switch (node.kind) {
      case "text":
        out += spend(budget, node.text);
        break;
      case "value":
        out += spend(budget, escapeHtml(toText(lookup(node.path, scopes))));
        break;
      case "if":
      case "unless": {
        const holds = truthy(lookup(node.path, scopes)) === (node.kind === "if");
        out += render(holds ? node.body : node.otherwise, scopes, budget);
        break;
      }
      case "each": {
        const list = lookup(node.path, scopes);
        const items = Array.isArray(list)
          ? list
          : typeof list === "object" && list !== null
            ? Object.values(list)
            : [];
        if (items.length === 0) out += render(node.otherwise, scopes, budget);
        items.forEach((item, index) => {
          out += render(node.body, [...scopes, { value: item, index }], budget);
        });
        break;
      }
    }
  }
  return out;
}

/**
 * Renders `markup` with `model`; throws {@link TemplateError} when its blocks do not nest, and
 * {@link OutputTooLargeError} as soon as the text passes `limit` characters (each text and value is
 * counted as it is added, so a loop that would make gigabytes stops at the limit).
 */
export function renderTemplate(markup: string, model: unknown, limit = Number.POSITIVE_INFINITY): string {
  return render(parse(markup), [{ value: model }], { left: limit, limit });
}

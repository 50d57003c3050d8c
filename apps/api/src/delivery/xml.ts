/** XML 1.0 allows no C0 control character except tab, line feed and carriage return. */
const isForbiddenControl = (code: number) => code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;

/** Escapes text and attribute values for XML 1.0. */
export function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;")
    .split("")
    .filter((ch) => !isForbiddenControl(ch.charCodeAt(0)))
    .join("");
}

export type Attrs = Record<string, string | number | undefined>;
/** An XML node: an element built by `el`, or text (escaped when serialised). */
export type XmlNode = XmlElement | string;

export interface XmlElement {
  name: string;
  attrs: Attrs;
  children: XmlNode[];
}

type Child = XmlNode | undefined | false;

/** An element; `undefined` attributes and `false`/`undefined` children are left out. */
export function el(name: string, attrs: Attrs = {}, ...children: (Child | Child[])[]) {
  const flat = children.flat().filter((c): c is XmlNode => c !== undefined && c !== false);
  return { name, attrs, children: flat } satisfies XmlElement;
}

/** Serialises with two-space indentation; elements holding text stay on one line. */
export function serialise(node: XmlNode, depth = 0): string {
  const pad = "  ".repeat(depth);
  if (typeof node === "string") return pad + escapeXml(node);
  const attrs = Object.entries(node.attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join("");
  if (node.children.length === 0) return `${pad}<${node.name}${attrs}/>`;
  if (node.children.every((c) => typeof c === "string")) {
    return `${pad}<${node.name}${attrs}>${node.children.map((c) => escapeXml(c)).join("")}</${node.name}>`;
  }
  const inner = node.children.map((c) => serialise(c, depth + 1)).join("\n");
  return `${pad}<${node.name}${attrs}>\n${inner}\n${pad}</${node.name}>`;
}

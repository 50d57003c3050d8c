// HTML helpers of the web plugin, free of dependencies so a benchmark can serve pages exactly as the API does.

/** Escapes text for a double-quoted HTML attribute. */
export function escapeAttribute(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

export interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/**
 * The `<link>` tags that let the browser fetch a lazily loaded route's chunk, its static imports and its CSS
 * together with the main bundle, instead of only after the main bundle has run (Vite's build manifest).
 */
export function preloadLinks(manifest: Record<string, ManifestChunk>, entry: string): string {
  const files = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (chunk === undefined || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry);
  return [
    ...[...styles].map((file) => `<link rel="stylesheet" href="/${escapeAttribute(file)}">`),
    ...[...files].map((file) => `<link rel="modulepreload" crossorigin href="/${escapeAttribute(file)}">`),
  ].join("");
}

/** The tablet route's chunk: the patient-facing runner is benchmarked on its first load (issue 5). */
export const TABLET_ENTRY = "src/tablet/routes.tsx";

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

// Everything the repository cites is in the repository: a comment or a page that names a document
// (`docs/api.md`, a decision record, a folder's README) names one that exists, and the overview and the
// decision records name only files of the tree. The product specification and the standards beside the
// repository (`../shared/`) are the one place outside it a citation may point, as CI has them there.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const SKIPPED = new Set([
  ".git",
  "node_modules",
  "dist",
  ".turbo",
  ".reports",
  "data",
  "test-results",
  "playwright-report",
  "testdata",
  "meta",
]);
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;

/** Every source and Markdown file of the repository, as paths from its root. */
function repositoryFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return repositoryFiles(path);
    return SOURCE.test(entry.name) || entry.name.endsWith(".md") ? [relative(ROOT, path)] : [];
  });
}

/** This file, whose examples name documents that do not exist. */
const SELF = relative(ROOT, fileURLToPath(import.meta.url));
const FILES = repositoryFiles().filter((file) => file !== SELF);

/** A cited document resolves from the citing file's folder or any folder above it, up to the root. */
function resolves(file: string, cited: string): boolean {
  for (let dir = dirname(join(ROOT, file)); ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, cited))) return true;
    if (dir === ROOT || dir === dirname(dir)) return false;
  }
}

/** The Markdown documents a text names (`docs/api.md`, `../shared/spec/SPEC.md`, `README.md`), web addresses aside. */
function citedDocuments(text: string): string[] {
  const withoutUrls = text.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, "");
  return [
    ...withoutUrls.matchAll(/(?<![\w/.-])((?:\.{1,2}\/)*(?:[\w-]+\/)*[\w.-]*[\w-]\.md)(?![\w/-])/g),
  ].map((match) => (match[1] ?? "").replace(/#.*$/, ""));
}

describe("the documents the repository cites", () => {
  test("the scan sees the repository's sources and pages", () => {
    expect(FILES).toContain("apps/api/src/permissions.ts");
    expect(FILES).toContain("docs/architecture.md");
    expect(FILES).toContain("CONTRIBUTING.md");
    expect(FILES.some((file) => file.startsWith("docs/decisions/"))).toBe(true);
    expect(citedDocuments("see docs/api.md, and (DESIGN.md: x) but not https://x.org/a/README.md")).toEqual([
      "docs/api.md",
      "DESIGN.md",
    ]);
  });

  test("every document a source file or page names exists", () => {
    const missing = FILES.flatMap((file) =>
      citedDocuments(readFileSync(join(ROOT, file), "utf8"))
        .filter((cited) => !resolves(file, cited))
        .map((cited) => `${file} cites ${cited}, which the repository does not contain`),
    );
    expect(missing).toEqual([]);
  });

  test("no file cites a design document by section", () => {
    const cites = FILES.filter((file) =>
      /\bdesign(\.md)?\s*(§|section\s+\d)/i.test(readFileSync(join(ROOT, file), "utf8")),
    );
    expect(cites).toEqual([]);
  });

  test("every path the overview, CONTRIBUTING and the decision records name is in the tree", () => {
    const pages = FILES.filter(
      (file) =>
        file === "docs/architecture.md" || file === "CONTRIBUTING.md" || file.startsWith("docs/decisions/"),
    );
    expect(pages.length).toBeGreaterThan(2);
    const missing = pages.flatMap((page) =>
      [
        ...readFileSync(join(ROOT, page), "utf8").matchAll(
          /`((?:apps|packages|docs|scripts|deploy)\/[^`\s*<>{}]+)`/g,
        ),
      ]
        .map((match) => (match[1] ?? "").replace(/[#:].*$/, ""))
        .filter((path) => !existsSync(join(ROOT, path)))
        .map((path) => `${page} names ${path}, which is not in the tree`),
    );
    expect(missing).toEqual([]);
  });
});

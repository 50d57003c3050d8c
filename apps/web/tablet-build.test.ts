import { describe, expect, test } from "vitest";
import type { Rolldown } from "vite";
import { chunkFiles, COMPILE_HINT, hintCompile, staticChunks } from "./tablet-build";

function chunk(fileName: string, imports: string[], dynamicImports: string[] = [], css: string[] = []) {
  return {
    type: "chunk",
    fileName,
    imports,
    dynamicImports,
    viteMetadata: { importedCss: new Set(css), importedAssets: new Set<string>() },
  };
}

// Only the fields chunkFiles reads; a real bundle carries many more.
const bundle = Object.fromEntries(
  [
    chunk("assets/tablet.js", ["assets/react.js"], ["assets/routes.js"], ["assets/tablet.css"]),
    chunk("assets/react.js", []),
    chunk("assets/routes.js", ["assets/react.js", "assets/runner.js"]),
    chunk("assets/runner.js", [], [], ["assets/runner.css"]),
    chunk("assets/portal.js", ["assets/react.js"]),
  ].map((item) => [item.fileName, item]),
) as unknown as Rolldown.OutputBundle;

describe("chunkFiles", () => {
  test("lists an entry's files, those it imports at once or later, and their CSS", () => {
    expect(chunkFiles(bundle, "assets/tablet.js").sort()).toEqual([
      "assets/react.js",
      "assets/routes.js",
      "assets/runner.css",
      "assets/runner.js",
      "assets/tablet.css",
      "assets/tablet.js",
    ]);
  });

  test("refuses a file that is not a chunk of the build", () => {
    expect(() => chunkFiles(bundle, "assets/missing.js")).toThrow("not a chunk");
  });
});

describe("staticChunks", () => {
  test("lists an entry's chunk and those it imports at once, not those it loads later", () => {
    expect(staticChunks(bundle, "assets/tablet.js").map((item) => item.fileName)).toEqual([
      "assets/tablet.js",
      "assets/react.js",
    ]);
  });
});

describe("hintCompile", () => {
  test("puts V8's compile hint on the first line once, and its source map a line down to match", () => {
    const built = {
      "assets/page.js": {
        type: "chunk",
        fileName: "assets/page.js",
        code: "run();\n//# sourceMappingURL=page.js.map",
        sourcemapFileName: "assets/page.js.map",
      },
      "assets/page.js.map": {
        type: "asset",
        fileName: "assets/page.js.map",
        source: JSON.stringify({ version: 3, sources: ["page.ts"], mappings: "AAAA,GAAG" }),
      },
    } as unknown as Rolldown.OutputBundle;
    const page = built["assets/page.js"] as Rolldown.OutputChunk;
    hintCompile(built, page);
    hintCompile(built, page);
    expect(page.code).toBe(`${COMPILE_HINT}\nrun();\n//# sourceMappingURL=page.js.map`);
    const map = built["assets/page.js.map"] as Rolldown.OutputAsset;
    expect(JSON.parse(String(map.source))).toEqual({
      version: 3,
      sources: ["page.ts"],
      mappings: ";AAAA,GAAG",
    });
  });
});

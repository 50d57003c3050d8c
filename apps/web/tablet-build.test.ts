import { describe, expect, test } from "vitest";
import type { Rolldown } from "vite";
import { chunkFiles } from "./tablet-build";

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

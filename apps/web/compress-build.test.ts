import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { precompress } from "./compress-build";

describe("precompress", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "core-care-compress-"));
    mkdirSync(join(dir, "assets"));
    mkdirSync(join(dir, ".vite"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("writes brotli and gzip copies that decompress to the very same bytes", () => {
    const script = `export const answers = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i, é: "ü" })))};`;
    writeFileSync(join(dir, "assets", "app-1.js"), script);
    writeFileSync(join(dir, "assets", "app-1.css"), "body { color: #123; }\n".repeat(50));
    writeFileSync(join(dir, "tablet-sw.js"), "self.addEventListener('fetch', () => {});");

    const done = precompress(dir).map((file) => file.slice(dir.length + 1));

    expect(done.sort()).toEqual(["assets/app-1.css", "assets/app-1.js", "tablet-sw.js"]);
    for (const file of done) {
      const original = readFileSync(join(dir, file));
      expect(brotliDecompressSync(readFileSync(join(dir, `${file}.br`)))).toEqual(original);
      expect(gunzipSync(readFileSync(join(dir, `${file}.gz`)))).toEqual(original);
    }
    expect(readFileSync(join(dir, "assets", "app-1.js.br")).length).toBeLessThan(script.length / 4);
  });

  test("leaves pages, images, source maps and the build's own records alone", () => {
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>x</title>");
    writeFileSync(join(dir, "assets", "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(join(dir, "assets", "app-1.js.map"), "{}");
    writeFileSync(join(dir, ".vite", "manifest.json"), "{}");

    expect(precompress(dir)).toEqual([]);
    for (const file of ["index.html", "assets/logo.png", "assets/app-1.js.map", ".vite/manifest.json"]) {
      expect(existsSync(join(dir, `${file}.br`))).toBe(false);
      expect(existsSync(join(dir, `${file}.gz`))).toBe(false);
    }
  });
});

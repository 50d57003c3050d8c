// Brotli and gzip copies of the build's files, made once at build time so the API server sends them
// compressed without spending CPU on every request (it serves `file.br` or `file.gz` beside `file`).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/**
 * Extensions of the files that compress. Images and fonts are compressed already; source maps are only
 * read by a developer's tools, and brotli's best quality over them would double the build's time; the
 * pages are sent with the signed-in user put in, so the server compresses each answer.
 */
export const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".svg", ".json", ".txt", ".webmanifest"]);

/** The encodings written beside each file, with the suffix the server looks for. */
export const ENCODINGS = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
] as const;

function compress(bytes: Buffer, encoding: (typeof ENCODINGS)[number]["encoding"]): Buffer {
  switch (encoding) {
    case "br":
      return brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
    case "gzip":
      return gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION });
  }
}

function filesUnder(dir: string): string[] {
  // Not the build's own records (.vite/manifest.json), which are never served.
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith(".")) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Writes `file.br` and `file.gz` beside every compressible file under `dir`; answers the files done. */
export function precompress(dir: string): string[] {
  const done: string[] = [];
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.has(extname(file))) continue;
    const bytes = readFileSync(file);
    for (const { encoding, suffix } of ENCODINGS)
      writeFileSync(`${file}${suffix}`, compress(bytes, encoding));
    done.push(file);
  }
  return done;
}

/** After a production build, writes the brotli and gzip copies of every file of the output folder. */
export function compressBuild(): Plugin {
  let outDir = "";
  return {
    name: "core-care:compress-build",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      // After every other plugin has written its files (the tablet's service worker among them).
      order: "post",
      sequential: true,
      handler() {
        precompress(outDir);
      },
    },
  };
}

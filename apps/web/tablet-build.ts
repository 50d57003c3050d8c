// The tablet's own HTML entry in the Vite build and dev server (issue 5). See src/tablet/README.md.
import type { Plugin, Rolldown } from "vite";
import { isTabletPath } from "@core-care/schema/paths";

/** The tablet page's build input name. */
export const TABLET_INPUT = "tablet";
/** The service worker's build input name. */
export const SERVICE_WORKER_INPUT = "tablet-sw";
/** The service worker's file, at the root of the site so that its scope may be /tablet. */
export const SERVICE_WORKER_FILE = "tablet-sw.js";
/** What the service worker's source names the list of files it stores. */
export const FILES_PLACEHOLDER = "__TABLET_FILES__";

/**
 * The build's files an entry chunk loads: its own, those of its static and dynamic imports,
 * transitively, and their CSS.
 */
export function chunkFiles(bundle: Rolldown.OutputBundle, entry: string): string[] {
  const files = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (chunk?.type !== "chunk") throw new Error(`${fileName} is not a chunk of the build`);
    if (files.has(fileName)) return;
    files.add(fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const imported of [...chunk.imports, ...chunk.dynamicImports]) visit(imported);
  };
  visit(entry);
  return [...files];
}

/** The build's chunks an entry chunk imports statically, transitively, itself included: what its page runs on load. */
export function staticChunks(bundle: Rolldown.OutputBundle, entry: string): Rolldown.OutputChunk[] {
  const chunks = new Map<string, Rolldown.OutputChunk>();
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (chunk?.type !== "chunk" || chunks.has(fileName)) return;
    chunks.set(fileName, chunk);
    for (const imported of chunk.imports) visit(imported);
  };
  visit(entry);
  return [...chunks.values()];
}

/**
 * V8's explicit compile hint (Chrome 136 and later): every function of the file is compiled as the file
 * streams in, on a background thread, instead of on the main thread at its first call.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad";

/** Puts the compile hint on the first line of `chunk`, its source map moved down a line to match. */
export function hintCompile(bundle: Rolldown.OutputBundle, chunk: Rolldown.OutputChunk): void {
  if (chunk.code.startsWith(COMPILE_HINT)) return;
  chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
  // A generated line with no mappings in front: every later segment's fields are relative, so they hold.
  // The bundle already holds the map as its own file.
  const map = chunk.sourcemapFileName === null ? undefined : bundle[chunk.sourcemapFileName];
  if (map?.type === "asset") {
    const parsed = JSON.parse(String(map.source)) as { mappings: string };
    map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
  }
}

function tabletEntryChunk(bundle: Rolldown.OutputBundle): Rolldown.OutputChunk | undefined {
  return Object.values(bundle).find(
    (item): item is Rolldown.OutputChunk =>
      item.type === "chunk" && item.isEntry && item.name === TABLET_INPUT,
  );
}

/**
 * - Dev server: answers /tablet pages with tablet.html, as the API server does.
 * - Build: writes the list of the tablet page's files into the service worker, which is emitted as
 *   /tablet-sw.js, and puts V8's compile hint on the files the tablet's page loads.
 */
export function tabletBuild(): Plugin {
  return {
    name: "core-care:tablet-build",
    config() {
      return {
        build: {
          rolldownOptions: {
            output: {
              entryFileNames: (chunk) =>
                chunk.name === SERVICE_WORKER_INPUT ? SERVICE_WORKER_FILE : "assets/[name]-[hash].js",
            },
          },
        },
      };
    },
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const accept = request.headers.accept ?? "";
        if (request.url && isTabletPath(request.url) && accept.includes("text/html")) {
          request.url = "/tablet.html";
        }
        next();
      });
    },
    generateBundle: {
      // After Vite has dropped the chunks that only carried CSS: the list must name existing files.
      order: "post",
      handler(_options, bundle) {
        const worker = bundle[SERVICE_WORKER_FILE];
        const tablet = tabletEntryChunk(bundle);
        if (worker?.type !== "chunk" || tablet === undefined) {
          this.error("the build has no tablet page or no tablet service worker");
        }
        // A classic service worker cannot import: a module shared with the page would fail its install.
        if (worker.imports.length > 0) {
          this.error(`${SERVICE_WORKER_FILE} imports ${worker.imports.join(", ")}; it must be one script`);
        }
        if (!worker.code.includes(FILES_PLACEHOLDER)) {
          this.error(`${SERVICE_WORKER_FILE} does not name ${FILES_PLACEHOLDER}`);
        }
        // The tablet's page runs nearly every function of the files it loads before its first question
        // (React, the runner, the page), so they are compiled as they stream in (issue 17).
        for (const chunk of staticChunks(bundle, tablet.fileName)) hintCompile(bundle, chunk);
        const files = chunkFiles(bundle, tablet.fileName).map((file) => `/${file}`);
        worker.code = worker.code.replaceAll(FILES_PLACEHOLDER, JSON.stringify(files));
      },
    },
  };
}

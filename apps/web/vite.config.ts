import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { compressBuild } from "./compress-build.ts";
import { SERVICE_WORKER_INPUT, TABLET_INPUT, tabletBuild } from "./tablet-build.ts";

const apiPort = process.env.API_PORT ?? "3000";

export default defineConfig({
  plugins: [react(), tabletBuild(), compressBuild()],
  resolve: { conditions: ["source", "module", "browser", "development|production"] },
  server: { proxy: { "/api": `http://127.0.0.1:${apiPort}` } },
  build: {
    outDir: "dist",
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      output: {
        // The survey engine and the runner's widgets in one file: left to itself the bundler makes a file
        // of every module the tablet's page shares with a staff page loaded on demand (sixteen requests
        // before the tablet's first question). The staff pages that use any of it load it on demand.
        codeSplitting: {
          groups: [
            {
              name: "survey-runner",
              // Not the built-in surveys' data nor the scoring, which only staff pages use. With them the
              // little the tablet shares with the Tele-AWV page besides (the sealed copies' base64).
              test: (id: string) =>
                /[\\/](packages[\\/]survey-engine[\\/]|src[\\/]survey-ui[\\/]|src[\\/]bytes-text\.ts$)/.test(
                  id,
                ) && !/[\\/]survey-engine[\\/]src[\\/](surveys[\\/]|scoring\.ts)/.test(id),
              // Not React, which the widgets import: the staff app needs it without them.
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
      input: {
        main: resolve(import.meta.dirname, "index.html"),
        [TABLET_INPUT]: resolve(import.meta.dirname, "tablet.html"),
        [SERVICE_WORKER_INPUT]: resolve(import.meta.dirname, "src/tablet/service-worker.ts"),
      },
    },
  },
  test: {
    include: ["src/**/*.test.{ts,tsx}", "*.test.ts"],
    environment: "jsdom",
    setupFiles: ["src/test/setup.ts"],
    // expect.poll gives up after one second by default; a busy machine can take longer.
    expect: { poll: { timeout: 10_000 } },
    reporters: ["default", "json"],
    outputFile: { json: ".reports/vitest.json" },
  },
});

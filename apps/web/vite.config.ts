import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { SERVICE_WORKER_INPUT, TABLET_INPUT, tabletBuild } from "./tablet-build.ts";

const apiPort = process.env.API_PORT ?? "3000";

export default defineConfig({
  plugins: [react(), tabletBuild()],
  resolve: { conditions: ["source", "module", "browser", "development|production"] },
  server: { proxy: { "/api": `http://127.0.0.1:${apiPort}` } },
  build: {
    outDir: "dist",
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
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
    reporters: ["default", "json"],
    outputFile: { json: ".reports/vitest.json" },
  },
});

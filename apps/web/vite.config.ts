import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

const apiPort = process.env.API_PORT ?? "3000";

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ["source", "module", "browser", "development|production"] },
  server: { proxy: { "/api": `http://127.0.0.1:${apiPort}` } },
  build: { outDir: "dist", sourcemap: true, manifest: true },
  test: {
    include: ["src/**/*.test.{ts,tsx}"],
    environment: "jsdom",
    reporters: ["default", "json"],
    outputFile: { json: ".reports/vitest.json" },
  },
});

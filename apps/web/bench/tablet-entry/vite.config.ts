import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: { conditions: ["source", "module", "browser", "development|production"] },
  build: { sourcemap: false, manifest: true },
});

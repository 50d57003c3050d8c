import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

/** Where the build puts the tablet's server renderer: beside the web build, never served (apps/api web plugin). */
export const SERVER_OUT_DIR = "dist/.server";

// The tablet's first page drawn on the server (src/tablet-server.tsx), built after the web build into
// dist/.server as one self-contained module the API imports.
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ["source", "module", "node", "production"] },
  ssr: {
    noExternal: true,
    target: "node",
    resolve: { conditions: ["source", "module", "node", "production"] },
  },
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  build: {
    ssr: "src/tablet-server.tsx",
    outDir: SERVER_OUT_DIR,
    emptyOutDir: false,
    copyPublicDir: false,
    sourcemap: false,
    minify: false,
    rolldownOptions: { output: { entryFileNames: "tablet-server.js" } },
  },
});

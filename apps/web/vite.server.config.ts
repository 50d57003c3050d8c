import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { TABLET_RENDERER_DIR } from "@core-care/schema/paths";

// The tablet's first page drawn on the server (src/tablet-server.tsx), built after the web build into
// dist/.server (TABLET_RENDERER_DIR) as one self-contained module the API imports.
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
    outDir: `dist/${TABLET_RENDERER_DIR}`,
    emptyOutDir: false,
    copyPublicDir: false,
    sourcemap: false,
    minify: false,
    rolldownOptions: { output: { entryFileNames: "tablet-server.js" } },
  },
});

import { defineConfig } from "vite";

// The UI is built into the Python package, which serves it from `memvault serve`.
export default defineConfig({
  base: "/",
  build: {
    outDir: "../src/memvault/web/static",
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});

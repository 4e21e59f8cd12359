/**
 * Widget build: `widgets/index.ts` → public/widgets/chorus.js, a tiny classic-script loader, plus one
 * ES module per element (`chorus-reviews.js`, ...) that the loader imports only when that element is
 * on the page. Shared code (Lit) lands in hashed chunks. Entries stay minified (generateBundle hook).
 */
import { transformWithEsbuild, defineConfig, type Plugin } from "vite";
import { resolve } from "node:path";
import { WIDGET_MODULES } from "./internal/registry.ts";

const root = resolve(import.meta.dirname);

const minifyEs: Plugin = {
  name: "chorus-minify-es",
  async generateBundle(_options, bundle) {
    for (const file of Object.values(bundle)) {
      if (file.type === "chunk") file.code = (await transformWithEsbuild(file.code, file.fileName, { minify: true, target: "es2022", format: "esm" })).code;
    }
  },
};

export default defineConfig({
  publicDir: false,
  esbuild: { target: "es2022" },
  plugins: [minifyEs],
  build: {
    outDir: resolve(root, "../public/widgets"),
    emptyOutDir: true,
    target: "es2022",
    minify: "esbuild",
    modulePreload: false,
    rollupOptions: {
      input: {
        chorus: resolve(root, "index.ts"),
        ...Object.fromEntries(Object.entries(WIDGET_MODULES).map(([tag, path]) => [tag, resolve(root, path)])),
      },
      preserveEntrySignatures: "strict",
      output: {
        format: "es",
        entryFileNames: "[name].js",
        chunkFileNames: "chunks/[name]-[hash].js",
      },
    },
  },
});

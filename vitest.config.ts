import { defineConfig } from "vitest/config";
import { resolve } from "node:path";

/**
 * Unit and API tests (server/, app/, widgets/ *.test.ts). API tests start the real HTTP server over
 * the real Remix build (run `npm run build` first; `npm test` does) and a temp SQLite file.
 * Widget tests run in happy-dom (file-level `@vitest-environment happy-dom`).
 */
export default defineConfig({
  resolve: { alias: { "~": resolve(import.meta.dirname, "app") } },
  esbuild: { target: "es2022" },
  test: {
    include: ["server/**/*.test.ts", "app/**/*.test.ts", "widgets/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});

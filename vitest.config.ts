import { defineConfig } from "vitest/config";
import { resolve } from "node:path";
import { POSTGRES_ONLY } from "./test/engine-suites.ts";
import { decorators } from "./widgets/vite.config.ts";

/** The widgets' suites: happy-dom (file-level `@vitest-environment happy-dom`) and modules that define custom elements. */
const WIDGET_SUITES = ["widgets/**/*.test.ts"];

/**
 * Unit and API tests (server/, app/, widgets/ *.test.ts). API tests start the real HTTP server over
 * the real Remix build (run `npm run build` first; `npm test` does) and a temp SQLite file.
 * Widget tests run in happy-dom (file-level `@vitest-environment happy-dom`), with the widgets' own
 * TypeScript transform (Lit's legacy decorators, class fields assigned in the constructor), as in the bundle.
 *
 * Two projects: the server suites share their worker's module cache from file to file (`isolate: false`: the Remix
 * build, Kysely and the migrations are loaded once per worker, not once per file; each file still starts its own
 * servers over its own database), which halves their CPU time (docs/performance.md "The test loop"). The widget
 * suites stay isolated: a custom element is defined once per module load, and each happy-dom file has a new window.
 */
export default defineConfig({
  plugins: [decorators],
  resolve: { alias: { "~": resolve(import.meta.dirname, "app") } },
  esbuild: { target: "es2022" },
  test: {
    // Timing figures run alone (`npm run test:latency`), not beside other files; PostgreSQL-only suites run in
    // `npm run test:postgres` (test/engine-suites.ts).
    exclude: ["**/node_modules/**", "test/db-latency.test.ts", ...POSTGRES_ONLY],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // In CI both test lanes share two cores (CONTRIBUTING.md "CI"): a test that waits on a clock can miss it under that
    // load, so a failed test runs once more there, as Playwright's do (playwright.config.ts); failing twice fails.
    retry: process.env.CI ? 1 : 0,
    // One migrated SQLite template per run; every startTestServer() copies it (test/sqlite-template.ts).
    globalSetup: ["test/sqlite-template.ts"],
    projects: [
      { extends: true, test: { name: "server", include: ["server/**/*.test.ts", "app/**/*.test.ts", "test/**/*.test.ts"], isolate: false } },
      { extends: true, test: { name: "widgets", include: WIDGET_SUITES } },
    ],
  },
});

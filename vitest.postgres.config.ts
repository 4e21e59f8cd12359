import { defineConfig } from "vitest/config";
import { POSTGRES_EXCLUDED, POSTGRES_SUITES } from "./test/engine-suites.ts";
import base from "./vitest.config.ts";

/**
 * The suites that must pass on both engines (issue #26), run on PostgreSQL: `npm run test:postgres`
 * (or `npm run test:postgres -- server/loyalty/loyalty.api.test.ts` for one file). test/postgres-setup.ts
 * starts one throwaway cluster for the run (or uses env CHORUS_TEST_POSTGRES_URL, an admin URL) and migrates
 * a template database once; every `startTestServer()` gets its own copy of it. Everything else as
 * vitest.config.ts (run `npm run build` first). Which suites run here is decided in test/engine-suites.ts.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // One project: no widget suites here, so every worker keeps its module cache from file to file (vitest.config.ts).
    projects: undefined,
    isolate: false,
    // Which suites, and why: test/engine-suites.ts.
    include: POSTGRES_SUITES,
    exclude: ["**/node_modules/**", ...POSTGRES_EXCLUDED],
    // Seeding through the write path costs a round trip per statement on PostgreSQL (ADR 0017).
    testTimeout: 120_000,
    hookTimeout: 240_000,
    globalSetup: ["test/postgres-setup.ts"],
  },
});

import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * The suites that must pass on both engines (issue #26), run on PostgreSQL: `npm run test:postgres`
 * (or `npm run test:postgres -- server/loyalty/loyalty.api.test.ts` for one file). test/postgres-setup.ts
 * starts one throwaway cluster for the run (or uses env CHORUS_TEST_POSTGRES_URL, an admin URL) and migrates
 * a template database once; every `startTestServer()` gets its own copy of it. Everything else as
 * vitest.config.ts (run `npm run build` first). Suites that read the SQLite file directly do not belong here.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      "server/db/postgres.test.ts",
      "server/api/**/*.test.ts",
      "server/reviews/*.api.test.ts",
      "server/questions/questions.api.test.ts",
      "server/enterprise/**/*.test.ts",
      "server/media/**/*.test.ts",
      "server/loyalty/*.api.test.ts",
      "server/surveys/surveys.api.test.ts",
      "test/fuzz-writes.test.ts",
    ],
    globalSetup: ["test/postgres-setup.ts"],
  },
});

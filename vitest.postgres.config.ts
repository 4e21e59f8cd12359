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
      "server/db/postgres*.test.ts",
      "server/api/**/*.test.ts",
      "server/reviews/*.test.ts",
      "server/questions/*.test.ts",
      "server/enterprise/**/*.test.ts",
      "server/media/**/*.test.ts",
      "server/loyalty/*.api.test.ts",
      "server/surveys/*.test.ts",
      "server/admin/*.test.ts",
      "server/widget-settings/*.test.ts",
      "server/privacy/*.test.ts",
      "server/mail/*.test.ts",
      "server/webhooks/*.test.ts",
      "server/review-requests/*.test.ts",
      "server/ai/*.test.ts",
      "server/orders/*.test.ts",
      "server/platforms/*.test.ts",
      "server/import/*.test.ts",
      "server/exports/*.test.ts",
      "server/feeds/*.api.test.ts",
      "server/marketing/*.api.test.ts",
      "server/snippets/*.test.ts",
      "server/cli/keys.test.ts",
      "server/http/scoped-invalidation.test.ts",
      "server/http/event-loop.test.ts",
      "test/fuzz-writes.test.ts",
      "test/queues-two-nodes.test.ts",
      "test/rewards-two-nodes.test.ts",
      "test/cluster-scopes.test.ts",
    ],
    // The demo imports (23,486 reviews, minutes on PostgreSQL) run on SQLite only; npm run cluster seeds them on PostgreSQL.
    exclude: ["server/**/*.demo.test.ts", "server/demo/**"],
    // Seeding through the write path costs a round trip per statement on PostgreSQL (ADR 0017).
    testTimeout: 120_000,
    hookTimeout: 240_000,
    globalSetup: ["test/postgres-setup.ts"],
  },
});

import { defineConfig } from "vitest/config";
import { FRONT_SUITES } from "./test/engine-suites.ts";
import postgres from "./vitest.postgres.config.ts";

/**
 * The engine matrix's third run (`npm run test:front`): the suites of cached and purged HTTP answers
 * (test/engine-suites.ts `FRONT_SUITES`) behind a real Varnish (deploy/varnish/chorus.vcl) in front of two nodes
 * on one PostgreSQL database per server (test/server.ts: CHORUS_TEST_FRONT=varnish, CHORUS_TEST_NODES=2, set here
 * for the test workers). Everything else as vitest.postgres.config.ts (run `npm run build` first).
 */
process.env.CHORUS_TEST_FRONT = "varnish";
process.env.CHORUS_TEST_NODES ??= "2";

export default defineConfig({
  ...postgres,
  test: { ...postgres.test, include: FRONT_SUITES },
});

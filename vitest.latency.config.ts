import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * The latency-injected PostgreSQL figures (test/db-latency.test.ts, issue #34): `npm run test:latency`, alone, on a
 * quiet machine (a timed check: not part of `npm test`; server/http/event-loop.postgres.test.ts holds the property there). Starts its own PostgreSQL and two nodes (run
 * `npm run build` first).
 */
export default defineConfig({
  ...base,
  test: { ...base.test, projects: undefined, include: ["test/db-latency.test.ts"], exclude: ["**/node_modules/**"], fileParallelism: false },
});

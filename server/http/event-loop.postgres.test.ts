/**
 * "The event loop never waits on the database" (issue #34 item 4; ADR 0017), without a stopwatch: while a query of
 * the node is stuck behind a lock PostgreSQL holds for another connection, the node goes on parsing and answering
 * other requests (`/healthz`, the OpenAPI document, another store's reads), and the stuck request completes once the
 * lock goes. A data layer that waited for each statement on the request thread would answer nothing meanwhile.
 * PostgreSQL only (`npm run test:postgres`); the figures with injected network latency are `npm run test:latency`.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";

// Selected by vitest.postgres.config.ts only (test/engine-suites.ts): without PostgreSQL it fails, never skips.
if (!process.env.CHORUS_TEST_POSTGRES_URL) throw new Error("PostgreSQL only: run it with `npm run test:postgres -- <file>` (env CHORUS_TEST_POSTGRES_URL)");
let t: TestServer;

describe("a node whose database query is stuck behind a lock", () => {
  beforeAll(async () => {
    t = await startTestServer({ cache: false });
    await seedRealReviews(t.services, { productIds: ["1078", "862"] });
  });
  afterAll(() => t?.close());

  it("answers other requests meanwhile, and the stuck one once the lock goes", async () => {
    const locker = new pg.Client({ connectionString: t.databasePath });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE reviews IN ACCESS EXCLUSIVE MODE");
      // A product page reads reviews: its query waits for the lock.
      let stuckDone = false;
      const stuck = fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-1078/reviews`)).then(async (res) => {
        stuckDone = true;
        return { status: res.status, body: (await res.json()) as { reviews: unknown[] } };
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(stuckDone).toBe(false);
      // Meanwhile, the same node answers requests that do not need the locked table, several times over.
      for (let i = 0; i < 5; i++) {
        const health = await fetch(t.url("/healthz"), { signal: AbortSignal.timeout(5_000) });
        expect(health.status).toBe(200);
        const openapi = await fetch(t.url("/v1/openapi.json"), { signal: AbortSignal.timeout(5_000) });
        expect(openapi.status).toBe(200);
        await openapi.arrayBuffer();
      }
      expect(stuckDone).toBe(false);
      await locker.query("COMMIT");
      const answer = await stuck;
      expect(answer.status).toBe(200);
      expect(answer.body.reviews.length).toBeGreaterThan(0);
    } finally {
      await locker.end();
    }
  });
});

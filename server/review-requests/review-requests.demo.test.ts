/**
 * Demo review-request history (issue #22 "Done when"): derived from the demo orders' real reviews,
 * idempotent, and counted by the funnel (sent before opened before reviewed).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { all, one, sql } from "../db/database.ts";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { platformDemoSeeder } from "../platforms/platforms.demo.ts";
import { reviewRequestsDemoSeeder } from "./review-requests.demo.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: ["1078", "862"] });
});
afterAll(async () => {
  await t?.close();
});

describe("demo review requests", () => {
  it("one completed request per demo order, reviewed with the order's real review; idempotent; in the funnel", async () => {
    const ctx = { services: t.services, config: {} as never, log: () => {} };
    await platformDemoSeeder(TEST_STORE_ID, "test").run(ctx);
    const log: string[] = [];
    await reviewRequestsDemoSeeder(TEST_STORE_ID, "test").run({ ...ctx, log: (l) => log.push(l) });
    const rows = await all<{ status: string; next_step: null; sent_ms: number; opened_ms: number; reviewed_ms: number; created_ms: number; review_product: string; product_id: string }>(
      t.services.db,
      sql`SELECT q.status, q.next_step, q.sent_ms, q.opened_ms, p.reviewed_ms, p.review_id, r.created_ms, r.product_id AS review_product, p.product_id
         FROM review_requests q JOIN review_request_products p ON p.request_id = q.request_id JOIN reviews r ON r.review_id = p.review_id
        WHERE q.store_id = ${TEST_STORE_ID}`,
    );
    const orders = ((await one(t.services.db, sql`SELECT COUNT(*) AS n FROM order_headers WHERE store_id = ${TEST_STORE_ID} AND source = 'demo-generated'`)) as { n: number }).n;
    expect(rows.length).toBe(orders);
    expect(log[0]).toBe(`Generated ${orders} demo review requests (sent, opened and reviewed) from the demo orders' real reviews.`);
    for (const r of rows) {
      expect(r).toMatchObject({ status: "completed", next_step: null, product_id: r.review_product, reviewed_ms: r.created_ms });
      expect(r.sent_ms).toBeLessThan(r.opened_ms);
      expect(r.opened_ms).toBeLessThan(r.reviewed_ms);
    }
    await reviewRequestsDemoSeeder(TEST_STORE_ID, "test").run(ctx);
    expect(((await one(t.services.db, sql`SELECT COUNT(*) AS n FROM review_requests WHERE store_id = ${TEST_STORE_ID}`)) as { n: number }).n).toBe(orders);

    // The funnel over the whole history counts each request once per stage; nothing is due, so the schedule sends nothing.
    const last = Math.max(...rows.map((r) => r.reviewed_ms));
    const first = Math.min(...rows.map((r) => r.sent_ms));
    const funnel = await t.services.reviewRequests.funnel(TEST_STORE_ID, Math.ceil((last - first) / 86_400_000) + 2, last);
    expect(funnel.totals).toEqual({ sent: orders, opened: orders, reviewed: orders });
    expect((await t.services.reviewRequests.runDue(Date.now(), t.baseUrl)).sent).toBe(0);
  });
});

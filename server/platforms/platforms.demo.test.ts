/**
 * Demo orders (issue #22): generated from real reviews (same product, placed before the review), marked
 * `demo-generated`, idempotent, and their reviews are verified buyers in the storefront API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { DEMO_ORDER_EVERY, platformDemoSeeder } from "./platforms.demo.ts";
import { all, one, sql } from "../db/database.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: ["1078", "862"] });
});
afterAll(() => t.close());

describe("demo orders", () => {
  it("one order per DEMO_ORDER_EVERY-th review, of the reviewed product, before the review; the review becomes verified-buyer", async () => {
    const seeder = platformDemoSeeder(TEST_STORE_ID, "test");
    const log: string[] = [];
    const started = performance.now();
    await seeder.run({ services: t.services, config: {} as never, log: (l) => log.push(l) });
    const ms = performance.now() - started;
    const rows = (await all(
      t.services.db,
      sql`SELECT h.order_id, h.status, h.source, h.ordered_ms, h.fulfilled_ms, o.product_id, r.product_id AS review_product, r.created_ms AS reviewed_ms, r.verified_status
         FROM order_headers h JOIN orders o ON o.store_id = h.store_id AND o.order_id = h.order_id
         JOIN reviews r ON r.store_id = h.store_id AND r.source = 'test' AND 'demo-' || r.source_key = h.order_id
        WHERE h.store_id = ${TEST_STORE_ID}`,
    )) as { status: string; source: string; ordered_ms: number; fulfilled_ms: number; product_id: string; review_product: string; reviewed_ms: number; verified_status: string }[];
    const reviews = ((await one(t.services.db, sql`SELECT COUNT(*) AS n FROM reviews WHERE store_id = ${TEST_STORE_ID}`)) as { n: number }).n;
    expect(rows.length).toBeGreaterThan(reviews / DEMO_ORDER_EVERY / 2);
    expect(rows.length).toBeLessThan((reviews / DEMO_ORDER_EVERY) * 2);
    for (const r of rows) {
      expect(r).toMatchObject({ status: "fulfilled", source: "demo-generated", product_id: r.review_product, verified_status: "verified-buyer" });
      expect(r.fulfilled_ms).toBeLessThan(r.reviewed_ms);
      expect(r.reviewed_ms - r.ordered_ms).toBeGreaterThanOrEqual(7 * 86_400_000);
    }
    const verified = ((await one(t.services.db, sql`SELECT COUNT(*) AS n FROM reviews WHERE store_id = ${TEST_STORE_ID} AND verified_status = 'verified-buyer'`)) as { n: number }).n;
    expect(verified).toBe(rows.length);
    expect(log[0]).toMatch(/Generated \d+ demo orders/);
    console.log(`demo orders: ${rows.length} of ${reviews} reviews in ${Math.round(ms)} ms`);

    // Idempotent.
    await seeder.run({ services: t.services, config: {} as never, log: () => {} });
    expect(((await one(t.services.db, sql`SELECT COUNT(*) AS n FROM order_headers WHERE store_id = ${TEST_STORE_ID}`)) as { n: number }).n).toBe(rows.length);

    // The storefront shows the badge's status.
    const res = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-1078/reviews?limit=25`));
    const list = (await res.json()).reviews as { reviewer: { verifiedStatus: string; isVerified: boolean } }[];
    expect(list.some((r) => r.reviewer.verifiedStatus === "verified-buyer" && r.reviewer.isVerified)).toBe(true);
    expect(list.some((r) => r.reviewer.verifiedStatus === "unverified")).toBe(true);
  });
});

/**
 * The demo store's Google Product Reviews feed (issue #38 "Done when"): the 23,486 real clothing reviews, with the
 * demo orders and review requests, streamed over real HTTP and validated against Google's transcribed schema 2.4
 * (test/google-product-reviews-schema.ts); requested reviews are `post_fulfillment` with their order as
 * `transaction_id`. The server's memory while streaming: the heap retained (after a full collection, sampled every
 * 512 KB read) stays bounded, far below the feed's size, because the feed is written one keyset batch at a time.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_DIR } from "../../test/fixtures.ts";
import { parseGoogleFeed, validateGoogleFeed } from "../../test/google-product-reviews-schema.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { loadConfig } from "../config.ts";
import { all, sql, value } from "../db/database.ts";
import { DEMO_SEEDERS, DEMO_STORE_ID, ensureDemoStore } from "../demo/demo.ts";

const PUBLIC_URL = "https://reviews.example.com";
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let t: TestServer;
let local = "";
beforeAll(async () => {
  t = await startTestServer({ publicUrl: PUBLIC_URL });
  const seeders = DEMO_SEEDERS.filter((s) => ["reviews", "orders", "review-requests"].includes(s.name));
  await ensureDemoStore({ services: t.services, config: loadConfig({ ...process.env, DEMO_DATA_DIR: DATA_DIR }), log: () => {} }, seeders);
  const url = new URL(await t.services.feeds.googleProductReviewsUrl(DEMO_STORE_ID, PUBLIC_URL));
  local = t.url(`${url.pathname}${url.search}`);
}, 900_000);
afterAll(() => t.close());

describe("the demo store's Google Product Reviews feed", () => {
  it("streams with bounded heap growth", async () => {
    gc();
    const baseline = process.memoryUsage().heapUsed;
    const res = await fetch(local, { headers: { "accept-encoding": "identity" } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let bytes = 0;
    let nextSample = 0;
    let maxGrowth = 0;
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      bytes += chunk.byteLength; // nothing kept
      if (bytes >= nextSample) {
        nextSample += 512 * 1024;
        gc();
        maxGrowth = Math.max(maxGrowth, process.memoryUsage().heapUsed - baseline);
      }
    }
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(`demo feed: ${mb(bytes)} MB streamed; heap retained while streaming at most ${mb(maxGrowth)} MB above the ${mb(baseline)} MB before`);
    expect(bytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(maxGrowth).toBeLessThan(16 * 1024 * 1024);
    expect(maxGrowth).toBeLessThan(bytes / 4);
  }, 600_000);

  it("holds every published review with text and validates against Google's schema 2.4", async () => {
    const published = Number(await value<number>(t.services.db, sql`SELECT COUNT(*) AS n FROM reviews WHERE store_id = ${DEMO_STORE_ID} AND status = 'published'`));
    expect(published).toBe(23_486);
    const withText = Number(await value<number>(t.services.db, sql`SELECT COUNT(*) AS n FROM reviews WHERE store_id = ${DEMO_STORE_ID} AND status = 'published' AND TRIM(body) <> ''`));
    const gz = await fetch(local, { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    const started = performance.now();
    const feed = validateGoogleFeed(parseGoogleFeed(await gz.text()));
    const reviews = feed.feed.reviews!.review;
    console.log(`demo feed: ${reviews.length} of ${published} published reviews (the others have no text), validated in ${Math.round(performance.now() - started)} ms`);
    expect(reviews).toHaveLength(withText);
    expect(feed.feed.publisher.name).toBe("Chorus Demo Boutique");
    for (const r of reviews) expect(r.products.product[0].product_url).toMatch(new RegExp(`^${PUBLIC_URL}/demo/products/shopify-\\d+$`));

    // Requested reviews: post_fulfillment with the order; the others unsolicited.
    const requested = new Map(
      (
        await all<{ review_id: string; order_id: string }>(
          t.services.db,
          sql`SELECT rp.review_id, rq.order_id FROM review_request_products rp
        JOIN review_requests rq ON rq.request_id = rp.request_id JOIN reviews r ON r.review_id = rp.review_id
       WHERE rp.store_id = ${DEMO_STORE_ID} AND r.status = 'published' AND TRIM(r.body) <> ''`,
        )
      ).map((r) => [r.review_id, r.order_id]),
    );
    expect(requested.size).toBeGreaterThan(1000);
    for (const r of reviews) {
      const order = requested.get(r.review_id);
      expect({ method: r.collection_method, transaction: r.transaction_id }).toEqual(order ? { method: "post_fulfillment", transaction: order } : { method: "unsolicited", transaction: undefined });
    }
  }, 600_000);
});

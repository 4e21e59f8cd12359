/**
 * Scoped invalidation of the response cache (decision 0007): a commit makes stale only the cached answers
 * that read what it changed. Real server, one real read worker thread (its `answered` counter tells a
 * computed answer from a cached one), real reviews, real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realReviews, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { CONTENT_SCOPES_HEADER } from "../shared/content-scopes.ts";

const store = `/v1/stores/${TEST_STORE_ID}`;
let t: TestServer;
let groupA: string;
let groupB: string;

beforeAll(async () => {
  t = await startTestServer({ readWorkers: 1 });
  seedRealReviews(t.services, { productIds: ["1078", "862", "1094"] });
  groupA = t.services.stores.getProduct(TEST_STORE_ID, "1078")!.groupId!;
  groupB = t.services.stores.getProduct(TEST_STORE_ID, "862")!.groupId!;
});
afterAll(async () => t?.close());

/** GET each path; say which were computed (by the read worker) rather than answered from the cache. */
async function computed(paths: Record<string, string>): Promise<Record<string, boolean>> {
  const out: Record<string, boolean> = {};
  for (const [name, path] of Object.entries(paths)) {
    const before = t.readWorkers!.answered;
    const res = await fetch(t.url(store + path));
    expect(res.status, path).toBe(200);
    await res.arrayBuffer();
    out[name] = t.readWorkers!.answered > before;
  }
  return out;
}

const publish = (productId: string) => {
  const text = realReviews().find((r) => r.productId === "1094" && r.body)!;
  const reviewId = crypto.randomUUID();
  t.services.reviewsData.insert({
    reviewId, storeId: TEST_STORE_ID, productId, rating: text.rating, title: text.title, body: text.body,
    createdMs: Date.now(), status: "published", reviewerName: "Anonymous shopper",
  });
  return reviewId;
};

describe("scoped invalidation", () => {
  it("a review of one product leaves the other products' cached answers in the cache", async () => {
    expect(groupA).not.toBe(groupB); // the test needs products in two groups
    const paths = {
      productA: "/products/shopify-1078/reviews",
      aggregateA: "/products/shopify-1078/review_aggregate",
      groupA: `/collections/${groupA}/reviews`,
      storeWide: "/reviews",
      productB: "/products/shopify-862/reviews",
      aggregateB: "/products/shopify-862/review_aggregate",
      groupB: `/collections/${groupB}/review_aggregate`,
    };
    await computed(paths);
    expect(Object.values(await computed(paths)).some(Boolean)).toBe(false); // all cached now
    const reviewId = publish("1078");
    expect(await computed(paths)).toEqual({
      productA: true, aggregateA: true, groupA: true, storeWide: true, productB: false, aggregateB: false, groupB: false,
    });
    const page = (await (await fetch(t.url(`${store}/products/shopify-1078/reviews`))).json()) as { reviews: { reviewId: string }[] };
    expect(page.reviews[0]!.reviewId).toBe(reviewId);
  });

  it("a helpful vote through the API is in the next answer of its product's page, and no other page is computed again", async () => {
    const paths = { productB: "/products/shopify-862/reviews", productC: "/products/shopify-1094/reviews", mediaC: "/products/shopify-1094/review_media" };
    const first = (await (await fetch(t.url(store + paths.productB))).json()) as { reviews: { reviewId: string; helpfulCount: number }[] };
    await computed(paths);
    const target = first.reviews[0]!;
    const vote = await fetch(t.url(`${store}/reviews/${target.reviewId}/votes`), {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ vote: "helpful", visitorId: "visitor-scoped-1" }),
    });
    expect(vote.status).toBe(200);
    expect(await computed(paths)).toEqual({ productB: true, productC: false, mediaC: false });
    const after = (await (await fetch(t.url(store + paths.productB))).json()) as { reviews: { reviewId: string; helpfulCount: number }[] };
    expect(after.reviews.find((r) => r.reviewId === target.reviewId)!.helpfulCount).toBe(target.helpfulCount + 1);
  });

  it("a change of the store's settings makes every answer of the store stale", async () => {
    const paths = { productC: "/products/shopify-1094/reviews", storeAggregate: "/review_aggregate" };
    await computed(paths);
    t.services.stores.updateSettings(TEST_STORE_ID, { name: "Renamed store" });
    expect(await computed(paths)).toEqual({ productC: true, storeAggregate: true });
  });

  it("a product that shows its group's AI content shows the group's summary as soon as the merchant approves it", async () => {
    t.services.stores.setGroupContent(TEST_STORE_ID, groupA, true);
    const generated = await t.services.ai.generate(TEST_STORE_ID, { type: "group", id: groupA }, { publish: false });
    expect(generated.status).toBe("generated");
    const path = "/products/shopify-1078/reviews_summary";
    expect(await (await fetch(t.url(store + path))).json()).toEqual({}); // generated, not yet published
    expect(await computed({ summary: path })).toEqual({ summary: false });
    // Approval writes only the group's AI content: no review, product or store row changes.
    t.services.ai.approve(TEST_STORE_ID, (generated as { version: { version_id: string } }).version.version_id);
    expect(await computed({ summary: path })).toEqual({ summary: true });
    const after = (await (await fetch(t.url(store + path))).json()) as { reviewsSummary?: { body: string } };
    expect(after.reviewsSummary?.body).toBeTruthy();
  });

  it("the scopes header never reaches a client", async () => {
    for (const path of ["/products/shopify-862/reviews?limit=3", "/products/shopify-862/reviews?limit=3", "/products/shopify-862/reviews_keywords"]) {
      const res = await fetch(t.url(store + path));
      expect(res.headers.get(CONTENT_SCOPES_HEADER), path).toBeNull();
    }
    const uncached = await startTestServer({ cache: false, databasePath: `${t.dir}/chorus.sqlite` });
    try {
      const res = await fetch(uncached.url(`${store}/products/shopify-862/reviews`));
      expect(res.status).toBe(200);
      expect(res.headers.get(CONTENT_SCOPES_HEADER)).toBeNull();
    } finally {
      await uncached.close();
    }
  });
});

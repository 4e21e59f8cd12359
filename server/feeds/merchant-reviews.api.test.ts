/**
 * Store reviews and the merchant review feed over real HTTP (issue #38 item 1, docs/google-shopping.md "Seller
 * ratings"): `POST /v1/stores/{store}/store_reviews` under the store's moderation setting, the honeypot and bad
 * input (400 JSON), moderation to published, the feed URL from `GET /enterprise/settings`, the feed validated
 * against Google's transcribed merchant review schema (test/google-merchant-reviews-schema.ts), gzip, and the
 * product side untouched: product review aggregate and the Product Reviews feed are the same before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realReviews, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { parseMerchantFeed, validateMerchantFeed } from "../../test/google-merchant-reviews-schema.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";

const API_KEY = "merchant-feed-api-key-0123456789abcdef";
const PUBLIC_URL = "https://reviews.example.com";
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ publicUrl: PUBLIC_URL });
  await seedRealReviews(t.services, { productIds: ["1078"] });
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", API_KEY);
});
afterAll(() => t.close());

const url = (path: string) => t.url(`/v1/stores/${TEST_STORE_ID}${path}`);
async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url("/store_reviews"), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}
/** The feed URLs as the settings API answers them, made local (the test server listens on loopback). */
async function feedUrls(): Promise<{ merchant: string; product: string; publicMerchant: string }> {
  const res = await fetch(t.url("/enterprise/settings"), { headers: { authorization: basic } });
  expect(res.status).toBe(200);
  const feeds = (await res.json()).feeds as { googleProductReviewsUrl: string; googleMerchantReviewsUrl: string };
  const local = (u: string) => t.url(`${new URL(u).pathname}${new URL(u).search}`);
  return { merchant: local(feeds.googleMerchantReviewsUrl), product: local(feeds.googleProductReviewsUrl), publicMerchant: feeds.googleMerchantReviewsUrl };
}
async function merchantFeed(feedUrl: string) {
  const res = await fetch(feedUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  const xml = await res.text();
  return { xml, feed: validateMerchantFeed(parseMerchantFeed(xml), xml) };
}
const productSide = async (urls: { product: string }) => ({
  aggregate: await (await fetch(url("/review_aggregate"))).json(),
  productAggregate: await (await fetch(url("/products/shopify-1078/review_aggregate"))).json(),
  feed: await (await fetch(urls.product)).text(),
  list: (await (await fetch(url("/reviews?limit=100"))).json()) as unknown,
});

// Real review texts (test/fixtures.ts) as store review bodies.
const texts = realReviews()
  .filter((r) => r.body.trim().length > 40 && r.title)
  .slice(0, 3);

describe("store reviews and the merchant review feed", () => {
  it("has the feed URL next to the Product Reviews feed's, with the same token; a wrong token is 401 JSON", async () => {
    const urls = await feedUrls();
    expect(urls.publicMerchant).toMatch(new RegExp(`^${PUBLIC_URL}/v1/stores/${TEST_STORE_ID}/feeds/google-merchant-reviews\\.xml\\?token=[A-Za-z0-9_-]{43}$`));
    expect(new URL(urls.merchant).search).toBe(new URL(urls.product).search);
    const bad = await fetch(url("/feeds/google-merchant-reviews.xml?token=wrong"));
    expect(bad.status).toBe(401);
    expect((await bad.json()).error.description).toMatch(/token/);
    // No store review yet: a valid feed with the merchant and no reviews.
    const { feed } = await merchantFeed(urls.merchant);
    expect(feed.feed.merchants!.merchant).toEqual([{ "@_id": TEST_STORE_ID, name: "Test store", merchant_url: PUBLIC_URL }]);
    expect(feed.feed.reviews).toBeUndefined();
  });

  it("refuses bad input with 400 JSON naming the field, and 404 for an unknown store", async () => {
    for (const [body, field] of [
      [{ rating: 9, body: "Fine", displayName: "Al", email: "al@example.com" }, /rating/],
      [{ rating: 5, body: "", displayName: "Al", email: "al@example.com" }, /body/],
      [{ rating: 5, body: "Fine", displayName: "Al", email: "not-an-address" }, /email/],
      [{ rating: 5, body: "Fine", email: "al@example.com" }, /displayName/],
      [{ rating: 5, body: "x".repeat(20_000), displayName: "Al", email: "al@example.com" }, /body/],
    ] as const) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.description).toMatch(field);
    }
    expect((await post("{not json")).status).toBe(400);
    expect((await post([1, 2])).status).toBe(400);
    const unknown = await fetch(t.url("/v1/stores/00000000-0000-4000-8000-000000000000/store_reviews"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rating: 5, body: "Fine", displayName: "Al", email: "al@example.com" }),
    });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.description).toBeTruthy();
  });

  it("moderates store reviews like product reviews; published ones fill the feed, and the product side stays the same", async () => {
    const urls = await feedUrls();
    const before = await productSide(urls);

    // The honeypot: the same 201, nothing stored.
    const bot = await post({ rating: 5, body: "Great shop", displayName: "Bot", email: "bot@example.com", website: "http://spam.example" });
    expect(bot.status).toBe(201);

    // Manual moderation (the default): pending, not in the feed.
    const submitted: string[] = [];
    for (const [i, r] of texts.entries()) {
      const res = await post({ rating: r.rating, title: r.title, body: r.body, displayName: i === 0 ? "Anonymous" : `Shopper ${i}`, email: `shopper${i}@example.com` });
      expect(res.status).toBe(201);
      expect(res.body.review.status).toBe("pending");
      submitted.push(res.body.review.reviewId as string);
    }
    expect((await merchantFeed(urls.merchant)).feed.feed.reviews).toBeUndefined();
    expect((await t.services.storeReviews.list(TEST_STORE_ID, "pending")).map((r) => r.review_id).sort()).toEqual([...submitted].sort());

    // Publish two, reject one (the admin's moderation).
    expect(await t.services.storeReviews.setStatus(TEST_STORE_ID, submitted.slice(0, 2), "published")).toBe(2);
    expect(await t.services.storeReviews.setStatus(TEST_STORE_ID, [submitted[2]], "rejected")).toBe(1);
    const { feed, xml } = await merchantFeed(urls.merchant);
    const reviews = feed.feed.reviews!.review;
    expect(reviews.map((r) => r["@_id"]).sort()).toEqual(submitted.slice(0, 2).sort());
    const first = reviews.find((r) => r["@_id"] === submitted[0])!;
    expect(first.reviewer_name).toBeUndefined(); // anonymous: the optional element is left out
    expect(first.ratings.overall).toEqual({ "#text": String(texts[0].rating), "@_min": "1", "@_max": "5" });
    expect(first.collection_method).toBe("unsolicited");
    expect(first["@_mid"]).toBe(TEST_STORE_ID);
    const lf = (s: string) => s.replace(/\r\n?/g, "\n");
    expect(lf(first.content)).toBe(lf(texts[0].body.trim()));
    expect(reviews.find((r) => r["@_id"] === submitted[1])!.reviewer_name).toBe("Shopper 1");
    expect(xml).not.toContain(submitted[2]);

    // gzip when accepted, identical once decompressed.
    const gz = await fetch(urls.merchant, { headers: { "accept-encoding": "gzip" } }); // fetch decompresses it
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toMatch(/accept-encoding/i);
    expect(await gz.text()).toBe(xml);

    // Product review aggregates, listings and the Product Reviews feed are untouched by store reviews.
    expect(await productSide(urls)).toEqual(before);
  });

  it("publishes at once under the store's auto-publish setting", async () => {
    await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "auto-publish-4-5" });
    const low = await post({ rating: 2, body: "Slow delivery, but the support answered.", displayName: "Dee", email: "dee@example.com" });
    const high = await post({ rating: 5, body: "Fast delivery and careful packing.", displayName: "Eve", email: "eve@example.com" });
    expect([low.body.review.status, high.body.review.status]).toEqual(["pending", "published"]);
    const { feed } = await merchantFeed((await feedUrls()).merchant);
    const ids = feed.feed.reviews!.review.map((r) => r["@_id"]);
    expect(ids).toContain(high.body.review.reviewId);
    expect(ids).not.toContain(low.body.review.reviewId);
    await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "manual" });
  });
});

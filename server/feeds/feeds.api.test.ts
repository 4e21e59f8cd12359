/**
 * The Google Product Reviews feed over real HTTP (issue #38 item 1, docs/google-shopping.md): the secret URL from
 * `GET /enterprise/settings` (built from PUBLIC_URL), 401/404 JSON for a wrong or missing token or store, rotation,
 * gzip, the feed validated against Google's transcribed schema (test/google-product-reviews-schema.ts), a signed
 * Shopify `products/update` with barcode, SKU and vendor putting them in the feed, XML escaping of real text with
 * markup characters, and the identifiers CSV with the admin's coverage figures.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realReviews, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { parseGoogleFeed, validateGoogleFeed, type GoogleFeed } from "../../test/google-product-reviews-schema.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { isGtin } from "./feeds.service.ts";
import { postShopifyWebhook } from "../../test/shopify-webhook.ts";

const SHOP = "chorus-feed.myshopify.com";
const APP_SECRET = "shpss_feed_0123456789abcdef0123456789";
const API_KEY = "feed-test-api-key-0123456789abcdef";
const PUBLIC_URL = "https://reviews.example.com";
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;
const EAN = "4006381333931"; // a valid EAN-13 (GS1 check digit 1)

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ publicUrl: PUBLIC_URL });
  await seedRealReviews(t.services, { productIds: ["1078", "862"] });
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", API_KEY);
  await t.services.platforms.updateSettings(TEST_STORE_ID, { shopDomain: SHOP, appSecret: APP_SECRET });
});
afterAll(() => t.close());

/** POST a Shopify webhook signed with the store's app secret. */
async function shopify(topic: string, body: unknown) {
  const res = await postShopifyWebhook(t.url, { shop: SHOP, secret: APP_SECRET, topic, body });
  return { status: res.status, body: await res.json() };
}

/** The feed URL as the settings API answers it, made local (PUBLIC_URL is the public address; the test server listens on loopback). */
async function feedUrl(): Promise<{ public: string; local: string }> {
  const res = await fetch(t.url("/enterprise/settings"), { headers: { authorization: basic } });
  expect(res.status).toBe(200);
  const url = (await res.json()).feeds.googleProductReviewsUrl as string;
  const u = new URL(url);
  return { public: url, local: t.url(`${u.pathname}${u.search}`) };
}

async function getFeed(url: string, headers: Record<string, string> = {}): Promise<{ res: Response; feed: GoogleFeed; xml: string }> {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  const xml = await res.text();
  return { res, xml, feed: validateGoogleFeed(parseGoogleFeed(xml)) };
}

const published = (productId: string) => realReviews().filter((r) => r.productId === productId);

describe("GET /v1/stores/{store}/feeds/google-product-reviews.xml", () => {
  it("has a secret URL from PUBLIC_URL; a missing or wrong token is 401 JSON, an unknown store 404", async () => {
    const url = await feedUrl();
    expect(url.public).toMatch(new RegExp(`^${PUBLIC_URL}/v1/stores/${TEST_STORE_ID}/feeds/google-product-reviews\\.xml\\?token=[A-Za-z0-9_-]{43}$`));
    expect((await feedUrl()).public).toBe(url.public); // stable until rotated
    const base = t.url(`/v1/stores/${TEST_STORE_ID}/feeds/google-product-reviews.xml`);
    for (const bad of [base, `${base}?token=`, `${base}?token=${"A".repeat(43)}`, `${url.local}x`]) {
      const res = await fetch(bad);
      expect(res.status, bad).toBe(401);
      expect((await res.json()).error.description).toMatch(/token/);
    }
    const other = await fetch(t.url(`/v1/stores/${randomUUID()}/feeds/google-product-reviews.xml?token=x`));
    expect(other.status).toBe(404);
    expect((await other.json()).error.description).toBeTruthy();
    expect((await fetch(t.url("/v1/stores/not-a-store/feeds/google-product-reviews.xml?token=x"))).status).toBe(404);
  });

  it("a signed Shopify products/update with barcode, SKU and vendor puts them in the feed, which validates against Google's schema", async () => {
    const url = await feedUrl();
    // Before: the products have no page URL (no webhook yet), so Google could take none of their reviews.
    expect((await getFeed(url.local)).feed.feed.reviews).toBeUndefined();

    const product = {
      id: 1078,
      title: "Trail Dress",
      handle: "trail-dress",
      vendor: "Retailer Studio",
      variants: [
        { id: 107801, barcode: EAN, sku: "TD-S" },
        { id: 107802, barcode: "INTERNAL-7", sku: "TD-M" },
      ],
    };
    expect(await shopify("products/update", product)).toEqual({ status: 200, body: { outcome: "applied" } });
    const { feed, res } = await getFeed(url.local);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(feed.feed.publisher.name).toBe("Test store");
    const reviews = feed.feed.reviews!.review;
    const withText = published("1078").filter((r) => r.body.trim());
    expect(reviews).toHaveLength(withText.length); // every published review with text; reviews without text are left out
    expect(withText.length).toBeLessThan(published("1078").length); // (the real data has some)
    for (const r of reviews) {
      expect(r.products.product[0]).toEqual({
        product_ids: { gtins: { gtin: [EAN] }, skus: { sku: ["TD-S", "TD-M"] }, brands: { brand: ["Retailer Studio"] } },
        product_name: "Trail Dress",
        product_url: `https://${SHOP}/products/trail-dress`,
      });
      expect(r.review_url).toEqual({ "#text": `https://${SHOP}/products/trail-dress#review-${r.review_id}`, "@_type": "singleton" });
      expect(r.collection_method).toBe("unsolicited");
      expect(r.is_spam).toBe("false");
      expect(r.reviewer.name).toEqual({ "#text": "Anonymous", "@_is_anonymous": "true" });
    }
    // The real texts, ratings and titles, in order (oldest first).
    // (XML parsers read every line end as LF: XML 1.0 "End-of-Line Handling".)
    const lf = (s: string) => s.replace(/\r\n?/g, "\n");
    const texts = new Set(withText.map((r) => lf(r.body.trim())));
    expect(reviews.filter((r) => !texts.has(lf(r.content))).map((r) => r.content)).toEqual([]);
    expect(reviews.map((r) => Number(r.ratings.overall["#text"])).sort()).toEqual(withText.map((r) => r.rating).sort());
    const times = reviews.map((r) => Date.parse(r.review_timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // A later update without a GTIN barcode takes the GTIN away (Shopify's rows are replaced, not merged).
    await shopify("products/update", { ...product, variants: [{ id: 107801, barcode: "", sku: "TD-S" }] });
    const after = (await getFeed(url.local)).feed.feed.reviews!.review[0].products.product[0].product_ids;
    expect(after).toEqual({ skus: { sku: ["TD-S"] }, brands: { brand: ["Retailer Studio"] } });
  });

  it("escapes markup characters and drops characters XML cannot hold", async () => {
    const url = await feedUrl();
    const real = published("1078").find((r) => r.body.includes("'") || r.body.includes('"'))!;
    const reviewId = randomUUID();
    const title = `Fits <small> & "true" to size ]]> \u0001`;
    await t.services.reviewsData.insert({
      reviewId,
      storeId: TEST_STORE_ID,
      productId: "1078",
      rating: real.rating,
      title,
      body: `${real.body} <script>alert(1)</script>`,
      createdMs: Date.now(),
      status: "published",
      reviewerName: "Zoë & <Ann>",
    });
    const { feed, xml } = await getFeed(url.local);
    const mine = feed.feed.reviews!.review.find((r) => r.review_id === reviewId)!;
    expect(mine.title).toBe(`Fits <small> & "true" to size ]]>`);
    expect(mine.content).toBe(`${real.body} <script>alert(1)</script>`.trim());
    expect(mine.reviewer.name).toEqual({ "#text": "Zoë & <Ann>", "@_is_anonymous": "false" });
    expect(xml).not.toContain("<script>");
    expect(xml).not.toContain("\u0001");
  });

  it("is gzip-compressed when the client accepts gzip, and identical once decompressed", async () => {
    const url = await feedUrl();
    const plain = await getFeed(url.local, { "accept-encoding": "identity" });
    expect(plain.res.headers.get("content-encoding")).toBeNull();
    const gz = await getFeed(url.local, { "accept-encoding": "gzip, deflate" });
    expect(gz.res.headers.get("content-encoding")).toBe("gzip");
    expect(gz.res.headers.get("vary")).toMatch(/accept-encoding/i);
    expect(gz.xml).toBe(plain.xml);
  });

  it("rotates its token by PATCH /enterprise/settings: the old URL answers 401 at once", async () => {
    const before = await feedUrl();
    const res = await fetch(t.url("/enterprise/settings"), {
      method: "PATCH",
      headers: { authorization: basic, "content-type": "application/json" },
      body: JSON.stringify({ feeds: { rotateGoogleProductReviewsToken: true } }),
    });
    expect(res.status).toBe(200);
    const now = (await res.json()).feeds.googleProductReviewsUrl as string;
    expect(now).not.toBe(before.public);
    expect((await fetch(before.local)).status).toBe(401);
    expect((await feedUrl()).public).toBe(now);
    await getFeed((await feedUrl()).local);
    const bad = await fetch(t.url("/enterprise/settings"), {
      method: "PATCH",
      headers: { authorization: basic, "content-type": "application/json" },
      body: JSON.stringify({ feeds: { rotateGoogleProductReviewsToken: "yes" } }),
    });
    expect(bad.status).toBe(400);
  });
});

describe("product identifiers from CSV, and coverage", () => {
  it("imports valid lines, reports the others; coverage says what the feed lacks and how many reviews Google can take", async () => {
    const before = await t.services.feeds.coverage(TEST_STORE_ID, PUBLIC_URL);
    const c862 = before.products.find((p) => p.productId === "862")!;
    expect(c862.lacks).toEqual(expect.arrayContaining(["gtin-or-brand-mpn", "product-url"]));
    expect(c862.acceptedCount).toBe(0);
    const c1078 = before.products.find((p) => p.productId === "1078")!;
    expect(c1078.lacks).toContain("gtin-or-brand-mpn"); // the GTIN went with the last webhook: brand without MPN is not enough

    const csv = [
      "productId,variantId,gtin,mpn,sku,brand",
      "shopify-1078,,,TD-100,,", // the MPN beside the webhook's brand
      "862,,,RS-9,,Retailer Studio",
      "862,86201,12345,,,", // not a GTIN
      "999999,,,X1,,Y", // unknown product
    ].join("\r\n");
    const report = await t.services.feeds.importIdentifiersCsv(TEST_STORE_ID, csv);
    expect(report.imported).toBe(2);
    expect(report.errors).toEqual([
      { line: 4, message: expect.stringMatching(/gtin/) },
      { line: 5, message: "unknown product 999999" },
    ]);

    const after = await t.services.feeds.coverage(TEST_STORE_ID, PUBLIC_URL);
    const a1078 = after.products.find((p) => p.productId === "1078")!;
    expect(a1078.lacks).not.toContain("gtin-or-brand-mpn");
    expect(a1078.acceptedCount).toBe(published("1078").filter((r) => r.body.trim()).length + 1); // + the review of the escaping test
    const a862 = after.products.find((p) => p.productId === "862")!;
    expect(a862.lacks).toEqual(["product-url", ...(a862.lacks.includes("content") ? ["content"] : [])]); // identifiable now, but no page
    expect(after.acceptedCount).toBe(a1078.acceptedCount);

    // The webhook's brand and the CSV's MPN together in the feed.
    const url = await feedUrl();
    const ids = (await getFeed(url.local)).feed.feed.reviews!.review[0].products.product[0].product_ids;
    expect(ids).toEqual({ mpns: { mpn: ["TD-100"] }, skus: { sku: ["TD-S"] }, brands: { brand: ["Retailer Studio"] } });

    await expect(t.services.feeds.importIdentifiersCsv(TEST_STORE_ID, "sku,brand\r\nA,B")).rejects.toMatchObject({ status: 400 });
    await expect(t.services.feeds.importIdentifiersCsv(TEST_STORE_ID, 'productId,gtin\r\n"862,1')).rejects.toMatchObject({ status: 400 });
  });

  it("checks GS1 check digits", () => {
    expect(["4006381333931", "96385074", "012345678905", "00012345600012"].map(isGtin)).toEqual([true, true, true, true]);
    expect(["4006381333932", "1234567", "ABCDEFGHIJKLM", "123456789012345"].map(isGtin)).toEqual([false, false, false, false]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID, type RealReview } from "../../test/fixtures.ts";
import { REVIEW_ORDERS, type ListReviewsResponse, type Review } from "../contract/storefront.ts";

let t: TestServer;
let rows: RealReview[];
const PRODUCTS = ["1078", "862", "1094"];
const prefix = `/v1/stores/${TEST_STORE_ID}`;

beforeAll(async () => {
  t = await startTestServer();
  rows = await seedRealReviews(t.services, { productIds: PRODUCTS });
  await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other", platform: "bigcommerce" });
});
afterAll(() => t.close());

/** GET a path under the store prefix, or a `nextUrl` (relative to `/v1`: `/stores/...`). */
const get = async (path: string) => {
  const res = await fetch(t.url(path.startsWith("/stores/") ? `/v1${path}` : prefix + path));
  return { res, body: await res.json() };
};

/** Follow nextUrl to the end; returns every review in order. */
async function allPages(path: string): Promise<Review[]> {
  const out: Review[] = [];
  let next: string | undefined = path;
  while (next) {
    const { res, body } = await get(next);
    expect(res.status).toBe(200);
    const page = body as ListReviewsResponse;
    out.push(...page.reviews);
    next = page.nextUrl;
  }
  return out;
}

describe("list reviews: parameters (docs/api.md, Query parameters and limits)", () => {
  it.each(["0", "26", "abc", "-1", "2.5", ""])("limit=%j answers 400 with a JSON error naming limit", async (limit) => {
    const { res, body } = await get(`/reviews?limit=${encodeURIComponent(limit)}`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(body.error.description).toMatch(/limit/);
  });

  it("limit defaults to 25 and accepts 1 and 25", async () => {
    expect((await get("/reviews")).body.reviews).toHaveLength(25);
    expect((await get("/reviews?limit=1")).body.reviews).toHaveLength(1);
    expect((await get("/reviews?limit=25")).body.reviews).toHaveLength(25);
  });

  it("an unknown orderBy answers 400 listing the accepted values", async () => {
    const { res, body } = await get(`/reviews?orderBy=${encodeURIComponent("price desc")}`);
    expect(res.status).toBe(400);
    expect(body.error.description).toContain("has_media desc");
  });

  it("an unknown locale answers 400; codes of both lists are accepted", async () => {
    expect((await get("/reviews?locale=xx")).res.status).toBe(400);
    for (const locale of ["zh-TW", "de-formal", "pt-PT", "pt-br", "zh-cn", "uk"]) {
      expect((await get(`/reviews?locale=${locale}&limit=1`)).res.status).toBe(200);
    }
  });

  it("unknown query parameters are ignored", async () => {
    expect((await get("/reviews?limit=2&utm_source=x")).body.reviews).toHaveLength(2);
  });
});

describe("list reviews: order and paging", () => {
  it.each(REVIEW_ORDERS)("orderBy=%s pages through every published review exactly once, in order", async (order) => {
    const all = await allPages(`/products/shopify-1078/reviews?limit=25&orderBy=${encodeURIComponent(order)}`);
    const expected = rows.filter((r) => r.productId === "1078").length;
    expect(all).toHaveLength(expected);
    expect(new Set(all.map((r) => r.reviewId)).size).toBe(expected);
    const key = (r: Review): number[] => {
      const date = Date.parse(r.dateCreated);
      switch (order) {
        case "date desc":
          return [-date];
        case "date asc":
          return [date];
        case "rating desc":
          return [-r.rating, -date];
        case "rating asc":
          return [r.rating, -date];
        case "helpful desc":
          return [-r.helpfulCount, -date];
        case "helpful asc":
          return [r.helpfulCount, -date];
        case "has_media desc":
          return [-(r.media.length > 0 ? 1 : 0), -date];
        case "unhelpful desc":
          return [-r.unhelpfulCount, -date];
      }
    };
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [key(all[i - 1]), key(all[i])];
      const cmp = a.map((v, j) => v - b[j]).find((d) => d !== 0) ?? 0;
      expect(cmp, `${order} at ${i}`).toBeLessThanOrEqual(0);
    }
  });

  it("nextUrl is relative to /v1 (as Okendo's clients prefix it) and keeps limit and orderBy", async () => {
    const { body } = await get(`/products/shopify-1078/reviews?limit=5&orderBy=${encodeURIComponent("rating asc")}`);
    expect(body.nextUrl).toMatch(new RegExp(`^/stores/${TEST_STORE_ID}/products/shopify-1078/reviews\\?limit=5&orderBy=rating%20asc&lastEvaluated=`));
    expect((await fetch(t.url(`/v1${body.nextUrl}`))).status).toBe(200);
  });

  it("the last page has no nextUrl", async () => {
    const { body } = await get("/products/shopify-862/reviews?limit=25");
    let page = body;
    while (page.nextUrl) page = (await get(page.nextUrl)).body;
    expect(page.nextUrl).toBeUndefined();
  });

  it.each([
    ["not JSON", "abc"],
    ["wrong shape", JSON.stringify({ k: "x" })],
    ["tampered key", null],
    ["another order's cursor", "order"],
    ["another product's cursor", "product"],
  ])("a %s lastEvaluated answers 400", async (_name, value) => {
    const { body: first } = await get("/products/shopify-1078/reviews?limit=2");
    const cursor = JSON.parse(new URL(first.nextUrl, "http://x").searchParams.get("lastEvaluated")!);
    let bad: string;
    if (value === null) bad = JSON.stringify({ ...cursor, k: [cursor.k[0] - 1, cursor.k[1]] });
    else if (value === "order") bad = JSON.stringify(cursor) + "";
    else if (value === "product") bad = JSON.stringify(cursor);
    else bad = value;
    const path =
      value === "order"
        ? `/products/shopify-1078/reviews?orderBy=date%20asc&lastEvaluated=${encodeURIComponent(bad)}`
        : value === "product"
          ? `/products/shopify-862/reviews?lastEvaluated=${encodeURIComponent(bad)}`
          : `/products/shopify-1078/reviews?lastEvaluated=${encodeURIComponent(bad)}`;
    const { res, body } = await get(path);
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/lastEvaluated/);
  });
});

describe("scopes, 404s and published-only", () => {
  it("store, product and group scopes list the right reviews", async () => {
    const store = await get("/review_aggregate");
    expect(store.body.reviewAggregate.reviewCount).toBe(rows.length);
    const product = await get("/products/shopify-862/review_aggregate");
    expect(product.body.reviewAggregate.reviewCount).toBe(rows.filter((r) => r.productId === "862").length);
    const groupId = rows.find((r) => r.productId === "1078")!.className.toLowerCase();
    const group = await allPages(`/collections/${groupId}/reviews`);
    const inGroup = new Set(rows.filter((r) => r.className.toLowerCase() === groupId).map((r) => r.productId));
    expect(group.every((r) => inGroup.has(r.productId.replace("shopify-", "")))).toBe(true);
  });

  it("a page spanning several products names each review's own product", async () => {
    const reviews = await allPages("/reviews");
    expect(new Set(reviews.map((r) => r.productId)).size).toBe(PRODUCTS.length);
    for (const review of reviews) {
      const product = (await t.services.stores.getProduct(TEST_STORE_ID, review.productId.replace("shopify-", "")))!;
      expect(review.productName, review.reviewId).toBe(product.name);
    }
  });

  it("unknown store, foreign platform prefix and unknown group answer 404 JSON", async () => {
    for (const path of [
      `/v1/stores/00000000-0000-4000-8000-000000000000/reviews`,
      `${prefix}/products/bigcommerce-1078/reviews`,
      `${prefix}/collections/no-such-group/reviews`,
      `/v1/stores/${OTHER_STORE_ID}/products/shopify-1078/reviews`,
    ]) {
      const res = await fetch(t.url(path));
      expect(res.status, path).toBe(404);
      expect((await res.json()).error.description).toBeTruthy();
    }
  });

  it("a known product without published reviews answers an empty list and a zero aggregate", async () => {
    expect((await get("/products/shopify-424242/reviews")).body).toEqual({ reviews: [] });
    expect((await get("/products/shopify-424242/review_aggregate")).body.reviewAggregate).toMatchObject({ reviewCount: 0, averageRating: 0 });
  });

  it("pending and rejected reviews are not listed and not counted", async () => {
    const before = (await get("/products/shopify-1094/review_aggregate")).body.reviewAggregate.reviewCount;
    const first = (await get("/products/shopify-1094/reviews?limit=1")).body.reviews[0] as Review;
    await t.services.reviewsData.setStatus(TEST_STORE_ID, first.reviewId, "pending");
    const after = await get("/products/shopify-1094/review_aggregate");
    expect(after.body.reviewAggregate.reviewCount).toBe(before - 1);
    const all = await allPages("/products/shopify-1094/reviews");
    expect(all.some((r) => r.reviewId === first.reviewId)).toBe(false);
    await t.services.reviewsData.setStatus(TEST_STORE_ID, first.reviewId, "published");
  });

  it("the aggregate matches a direct count of the real rows", async () => {
    const mine = rows.filter((r) => r.productId === "1078");
    const { body } = await get("/products/shopify-1078/review_aggregate");
    const total = mine.reduce((s, r) => s + r.rating, 0);
    const byLevel = Object.fromEntries([1, 2, 3, 4, 5].map((l) => [`level${l}Count`, mine.filter((r) => r.rating === l).length]));
    const product = (await t.services.stores.getProduct(TEST_STORE_ID, "1078"))!;
    expect(body.reviewAggregate).toEqual({
      reviewCount: mine.length,
      reviewRatingValuesTotal: total,
      averageRating: total / mine.length,
      reviewCountByLevel: byLevel,
      // Okendo-compatible (docs/api.md, Okendo-compatible)
      ratingAndReviewCount: mine.length,
      ratingAndReviewValuesTotal: total,
      ratingAndReviewCountByLevel: byLevel,
      recommendationCount: mine.filter((r) => r.recommended).length,
      ratingCount: 0,
      productName: product.name,
    });
  });
});

describe("HTTP behaviour", () => {
  it("answers CORS for any origin, with Cache-Control and an ETag; a matching If-None-Match gets 304", async () => {
    const res = await fetch(t.url(`${prefix}/reviews?limit=3`), { headers: { origin: "https://shop.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toMatch(/public/);
    const etag = res.headers.get("etag")!;
    expect(etag).toBeTruthy();
    const again = await fetch(t.url(`${prefix}/reviews?limit=3`), { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });

  /** A raw GET (fetch would decode the body) with `headers`. */
  const rawGet = async (path: string, headers: Record<string, string>) => {
    const { request } = await import("node:http");
    await t.settled();
    return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      request(t.url(path), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
        .on("error", reject)
        .end();
    });
  };

  it.each([
    ["br", "gzip, deflate, br, zstd"],
    ["gzip", "gzip"],
  ])("a cached answer served again is compressed (%s) for the requests after it", async (coding, acceptEncoding) => {
    const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
    const path = `${prefix}/products/shopify-1078/reviews?limit=20&orderBy=${coding === "br" ? "rating%20desc" : "rating%20asc"}`;
    const first = await rawGet(path, { "accept-encoding": acceptEncoding });
    if (t.front) {
      // Behind Varnish (deploy/varnish/chorus.vcl) the answer is stored gzipped when first fetched, so it is gzip
      // from the first request on, for clients that prefer br too (Varnish has no brotli: a documented limitation),
      // with the weak validator Varnish derives from Chorus's.
      expect(first.headers["content-encoding"], "stored gzipped by the front").toBe("gzip");
      expect(String(first.headers.etag)).toMatch(/^W\/"/);
    } else {
      expect(first.headers["content-encoding"], "a page computed now is sent as is").toBeUndefined();
    }
    expect(first.headers.vary).toBe("Accept-Encoding");
    const expected = t.front ? "gzip" : coding;
    const plain = t.front ? gunzipSync(first.body).toString() : first.body.toString();
    let answer = first;
    await expect.poll(async () => (answer = await rawGet(path, { "accept-encoding": acceptEncoding })).headers["content-encoding"]).toBe(expected);
    expect(answer.body.length).toBeLessThan(plain.length / 2);
    expect((expected === "br" ? brotliDecompressSync(answer.body) : gunzipSync(answer.body)).toString()).toBe(plain);
    expect(answer.headers.etag).toBe(t.front ? first.headers.etag : `W/${first.headers.etag}`);
    // the weak validator still revalidates, and a client without Accept-Encoding gets the plain bytes
    expect((await fetch(t.url(path), { headers: { "if-none-match": String(answer.headers.etag) } })).status).toBe(304);
    const identity = await rawGet(path, {});
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body.toString()).toBe(plain);
  });

  it("preflight allows the loyalty headers", async () => {
    const res = await fetch(t.url(`${prefix}/loyalty/login`), { method: "OPTIONS", headers: { origin: "https://shop.example", "access-control-request-method": "POST" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toMatch(/service-partner-id/);
  });

  it("the response cache never serves data older than a commit", async () => {
    const path = `${prefix}/products/shopify-862/review_aggregate`;
    const before = (await (await fetch(t.url(path))).json()).reviewAggregate.reviewCount;
    await fetch(t.url(path)); // now cached
    const victim = (await get("/products/shopify-862/reviews?limit=1")).body.reviews[0] as Review;
    await t.services.reviewsData.setStatus(TEST_STORE_ID, victim.reviewId, "rejected");
    expect((await (await fetch(t.url(path))).json()).reviewAggregate.reviewCount).toBe(before - 1);
    await t.services.reviewsData.setStatus(TEST_STORE_ID, victim.reviewId, "published");
    expect((await (await fetch(t.url(path))).json()).reviewAggregate.reviewCount).toBe(before);
  });

  it("unknown /v1 paths answer a JSON 404", async () => {
    const res = await fetch(t.url(`${prefix}/nothing/here`));
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBeTruthy();
  });

  it("no e-mail ever leaves through the storefront", async () => {
    const text = await (await fetch(t.url(`${prefix}/reviews?limit=25`))).text();
    expect(text).not.toMatch(/email/i);
  });
});

/**
 * Reviews list filters and search through the caches (issue #23 item 2; docs/api.md "Search and filters"): every
 * filter, search and order is part of a cached answer's address, a cursor stays bound to its filters, and a review
 * edited, unpublished or deleted leaves the cached results. Runs on SQLite and PostgreSQL (the response cache) and
 * behind Varnish in front of two nodes (test/engine-suites.ts `FRONT_SUITES`). What each filter keeps, through every
 * page of every listing, is server/reviews/search-filters.api.test.ts (SQLite and PostgreSQL: the same SQL behind
 * the front).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import type { ListReviewsResponse } from "../contract/storefront.ts";
import { run, sql, values } from "../db/database.ts";
import { searchMatchSql } from "../../test/search-oracle.ts";
import { reviewSearchMatch } from "./reviews.repo.ts";

let t: TestServer;
const S = `/v1/stores/${TEST_STORE_ID}`;
const PRODUCTS = ["1078", "862"];

async function get(url: string): Promise<{ status: number; body: ListReviewsResponse & { error?: { description: string } } }> {
  const res = await fetch(t.url(url));
  return { status: res.status, body: await res.json() };
}

/** SQL over alias r: the review matches the search text as the listing reads it. */
const searchSql = (text: string) => searchMatchSql(t.services.db, reviewSearchMatch(text)!);
const ORDER_SQL: Record<string, string> = {
  "date desc": "r.created_ms DESC, r.review_id DESC",
  "rating asc": "r.rating ASC, r.created_ms DESC, r.review_id DESC",
};
/** The first `n` IDs of the store's published reviews that `condition` (SQL over alias r) keeps, in `orderBy`. */
const firstOf = async (condition: string, orderBy: string, n: number) =>
  (await values(
    t.services.db,
    sql`SELECT r.review_id FROM reviews r WHERE r.store_id = ${TEST_STORE_ID} AND r.status = 'published' AND (${sql.raw(condition)}) ORDER BY ${sql.raw(ORDER_SQL[orderBy]!)} LIMIT ${n}`,
  )) as string[];
/** The IDs of the first two pages of a listing (the second through the first's nextUrl). */
async function twoPages(url: string): Promise<string[]> {
  const first = await get(url);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  expect(first.body.nextUrl, url).toBeDefined();
  const second = await get(`/v1${first.body.nextUrl}`);
  expect(second.status).toBe(200);
  return [...first.body.reviews, ...second.body.reviews].map((r) => r.reviewId);
}

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: PRODUCTS });
  // Verified buyers, photos and videos on some of the real reviews (every 3rd, 5th and 7th of each product).
  for (const productId of PRODUCTS) {
    const list = (await values(t.services.db, sql`SELECT review_id FROM reviews WHERE store_id = ${TEST_STORE_ID} AND product_id = ${productId} ORDER BY created_ms DESC`)) as string[];
    for (const [i, id] of list.entries()) {
      if (i % 3 === 0) await run(t.services.db, sql`UPDATE reviews SET verified_status = 'verified-buyer' WHERE review_id = ${id}`);
      if (i % 5 === 0 || i % 7 === 0) {
        await run(
          t.services.db,
          sql`INSERT INTO review_media (media_id, store_id, review_id, product_id, group_id, type, status, thumbnail_url, large_url, full_size_url, position, created_ms)
          VALUES (${crypto.randomUUID()}, ${TEST_STORE_ID}, ${id}, ${productId}, (SELECT group_id FROM reviews WHERE review_id = ${id}), ${i % 5 === 0 ? "image" : "video"}, 'published',
            '/media/t.jpg', '/media/l.jpg', '/media/f.jpg', 0, ${Date.now()})`,
        );
      }
    }
  }
});
afterAll(() => t.close());

describe("filters and search through the caches", () => {
  const media = (type: string) => `EXISTS (SELECT 1 FROM review_media m WHERE m.review_id = r.review_id AND m.status = 'published' AND m.type = '${type}')`;
  const cases: [query: string, condition: () => string][] = [
    ["rating=5", () => "r.rating = 5"],
    ["rating=2,1", () => "r.rating IN (1, 2)"],
    ["media=any", () => `${media("image")} OR ${media("video")}`],
    ["media=photos", () => media("image")],
    ["media=videos", () => media("video")],
    ["verified=true", () => "r.verified_status = 'verified-buyer'"],
    [`search=${encodeURIComponent("Love  the DRESS!")}`, () => searchSql("Love  the DRESS!")],
    ["rating=4,5&verified=true&search=fit", () => `r.rating IN (4, 5) AND r.verified_status = 'verified-buyer' AND ${searchSql("fit")}`],
  ];

  it("every filter, search and order is part of the cached answer's address: each reads as the reviews sort, read once and again", async () => {
    const urls = cases.flatMap(([query, condition]) => Object.keys(ORDER_SQL).map((orderBy) => ({ url: `${S}/reviews?${query}&orderBy=${encodeURIComponent(orderBy)}&limit=6`, condition, orderBy })));
    // Read every listing twice, the second time all from the cache: an address shared by two filters would answer one for the other.
    for (let pass = 0; pass < 2; pass++) {
      for (const { url, condition, orderBy } of urls) expect(await twoPages(url), `${url} (read ${pass + 1})`).toEqual(await firstOf(condition(), orderBy, 12));
    }
    // Unfiltered, the same address prefix: every review.
    expect(await twoPages(`${S}/reviews?limit=6`)).toEqual(await firstOf("1 = 1", "date desc", 12));
  });

  it("a cursor is valid only with the filters it was made with", async () => {
    const first = await get(`${S}/reviews?rating=5&limit=2`);
    const cursor = new URL(first.body.nextUrl!, "http://x").searchParams.get("lastEvaluated")!;
    expect((await get(`${S}/reviews?rating=5&limit=2&lastEvaluated=${encodeURIComponent(cursor)}`)).status).toBe(200);
    const other = await get(`${S}/reviews?rating=4&limit=2&lastEvaluated=${encodeURIComponent(cursor)}`);
    expect(other.status).toBe(400);
    expect(other.body.error?.description).toBeTruthy();
  });

  it("an edited, unpublished or deleted review leaves the results (the cached answer too)", async () => {
    const reviewId = crypto.randomUUID();
    await t.services.reviewsData.insert({
      reviewId,
      storeId: TEST_STORE_ID,
      productId: "862",
      rating: 5,
      title: "Quokka print",
      body: "A quokka on the pocket",
      createdMs: Date.now(),
      status: "published",
      reviewerName: "Test shopper",
    });
    const search = (q: string) => get(`${S}/reviews?search=${q}`).then((r) => r.body.reviews.map((x) => x.reviewId));
    const product = (q: string) => get(`${S}/products/shopify-862/reviews?search=${q}`).then((r) => r.body.reviews.map((x) => x.reviewId));
    expect(await search("quokka")).toEqual([reviewId]);
    expect(await product("quokka")).toEqual([reviewId]);
    await run(t.services.db, sql`UPDATE reviews SET title = 'Wombat print', body = 'A wombat on the pocket' WHERE review_id = ${reviewId}`);
    expect(await search("quokka")).toEqual([]);
    expect(await product("quokka")).toEqual([]);
    expect(await search("wombat")).toEqual([reviewId]);
    await t.services.reviewsData.setStatus(TEST_STORE_ID, reviewId, "rejected");
    expect(await search("wombat")).toEqual([]);
    await t.services.reviewsData.setStatus(TEST_STORE_ID, reviewId, "published");
    expect(await search("wombat")).toEqual([reviewId]);
    await run(t.services.db, sql`DELETE FROM reviews WHERE review_id = ${reviewId}`);
    expect(await search("wombat")).toEqual([]);
  });

  it("a bad value answers 400 naming the parameter, read once and again", async () => {
    for (let pass = 0; pass < 2; pass++) {
      for (const [query, name] of [
        ["rating=6", "rating"],
        ["media=pictures", "media"],
        ["verified=yes", "verified"],
        ["search=", "search"],
      ]) {
        const { status, body } = await get(`${S}/reviews?${query}`);
        expect(status, query).toBe(400);
        expect(body.error?.description, query).toContain(name);
      }
    }
  });
});

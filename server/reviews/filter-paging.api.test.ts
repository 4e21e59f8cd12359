/**
 * Paging every filter to the end (issue #37 item 5; docs/api.md "Search and filters" and "Paging"): for every
 * `orderBy` × filter (each star level, `media=any`, `verified=true`, a search word, combinations) × scope, the
 * pages of small `limit`s followed through `nextUrl` are exactly one unpaged query's reviews in the documented
 * order ("Ties always break by `dateCreated desc`, then `reviewId`"): no review twice, none missing. Real reviews
 * of the shared data file over real HTTP; their dates are cut to the day so that many share a date (ties in
 * every sort key fall on page boundaries).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import type { ListReviewsResponse } from "../contract/storefront.ts";
import { all, dialect, one, run, sql, values, type RawBuilder } from "../db/database.ts";
import { tsqueryOf } from "../db/text-search.ts";
import { reviewSearchMatch } from "./reviews.repo.ts";

let t: TestServer;
const S = `/v1/stores/${TEST_STORE_ID}`;
/** Two real products of 112 and 150 reviews (every star level, many equal helpful counts). */
const PRODUCTS = ["830", "834"];
const DAY_MS = 86_400_000;
const ORDERS = ["date desc", "date asc", "rating desc", "rating asc", "helpful desc", "helpful asc", "has_media desc", "unhelpful desc"] as const;

type Row = { review_id: string; rating: number; created_ms: number; helpful_count: number; unhelpful_count: number; media_count: number };

/** The filters paged, as query parameters and as the SQL (alias r) of the oracle. */
function filters(): { name: string; query: string; sql: string }[] {
  const search = (word: string) => {
    const match = reviewSearchMatch(word)!;
    return dialect(t.services.db) === "postgres"
      ? `r.review_id IN (SELECT review_id FROM review_search WHERE document @@ to_tsquery('chorus_english', '${tsqueryOf(match).replace(/'/g, "''")}'))`
      : `r.rowid IN (SELECT rowid FROM review_search WHERE review_search MATCH '${match.replace(/'/g, "''")}')`;
  };
  return [
    ...[1, 2, 3, 4, 5].map((n) => ({ name: `rating=${n}`, query: `rating=${n}`, sql: `r.rating = ${n}` })),
    { name: "media=any", query: "media=any", sql: "r.media_count > 0" },
    { name: "verified=true", query: "verified=true", sql: "r.verified_status = 'verified-buyer'" },
    { name: "search=dress", query: "search=dress", sql: search("dress") },
    { name: "rating=1,2&media=any", query: "rating=1,2&media=any", sql: "r.rating IN (1, 2) AND r.media_count > 0" },
    { name: "rating=4,5&verified&search=fit", query: "rating=4,5&verified=true&search=fit", sql: `r.rating IN (4, 5) AND r.verified_status = 'verified-buyer' AND ${search("fit")}` },
  ];
}

/** The matching reviews of one unpaged query, in `order` as docs/api.md defines it (key, then dateCreated desc, then reviewId). */
async function unpaged(scopeSql: RawBuilder<unknown>, condition: string, order: (typeof ORDERS)[number]): Promise<string[]> {
  const rows = await all<Row>(
    t.services.db,
    sql`SELECT r.review_id, r.rating, r.created_ms, r.helpful_count, r.unhelpful_count, r.media_count FROM reviews r
      WHERE r.store_id = ${TEST_STORE_ID} AND r.status = 'published'${scopeSql} AND (${sql.raw(condition)})`,
  );
  const key: Record<(typeof ORDERS)[number], (r: Row) => number> = {
    "date desc": () => 0,
    "date asc": () => 0,
    "rating desc": (r) => r.rating,
    "rating asc": (r) => -r.rating,
    "helpful desc": (r) => r.helpful_count,
    "helpful asc": (r) => -r.helpful_count,
    "has_media desc": (r) => (r.media_count > 0 ? 1 : 0),
    "unhelpful desc": (r) => r.unhelpful_count,
  };
  const sign = order === "date asc" ? -1 : 1;
  const byId = (a: Row, b: Row) => (a.review_id < b.review_id ? 1 : a.review_id > b.review_id ? -1 : 0);
  return rows.sort((a, b) => key[order](b) - key[order](a) || sign * (b.created_ms - a.created_ms) || sign * byId(a, b)).map((r) => r.review_id);
}

/** Every review ID of a listing, following `nextUrl` to the end, in the order served. */
async function paged(url: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let next: string | undefined = url;
  let pages = 0;
  while (next) {
    const res = await fetch(t.url(next));
    const body = (await res.json()) as ListReviewsResponse;
    expect(res.status, `${next}: ${JSON.stringify(body)}`).toBe(200);
    ids.push(...body.reviews.map((r) => r.reviewId));
    pages++;
    expect(pages, url).toBeLessThan(400);
    next = body.nextUrl ? `/v1${body.nextUrl}` : undefined;
  }
  return { ids, pages };
}

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: PRODUCTS });
  const db = t.services.db;
  // Dates cut to the day: the reviews of a day share one dateCreated (the real helpful counts and ratings tie already).
  await run(db, sql`UPDATE reviews SET created_ms = created_ms - (created_ms % ${DAY_MS}) WHERE store_id = ${TEST_STORE_ID}`);
  for (const productId of PRODUCTS) {
    const list = (await values(db, sql`SELECT review_id FROM reviews WHERE store_id = ${TEST_STORE_ID} AND product_id = ${productId} ORDER BY created_ms DESC, review_id`)) as string[];
    for (const [i, id] of list.entries()) {
      if (i % 3 === 0) await run(db, sql`UPDATE reviews SET verified_status = 'verified-buyer' WHERE review_id = ${id}`);
      if (i % 4 === 1) await run(db, sql`UPDATE reviews SET unhelpful_count = ${i % 3} WHERE review_id = ${id}`);
      if (i % 5 === 0) {
        await run(
          db,
          sql`
          INSERT INTO review_media (media_id, store_id, review_id, product_id, group_id, type, status, thumbnail_url, large_url, full_size_url, position, created_ms)
          VALUES (${crypto.randomUUID()}, ${TEST_STORE_ID}, ${id}, ${productId}, (SELECT group_id FROM reviews WHERE review_id = ${id}), 'image', 'published', '/media/t.jpg', '/media/l.jpg', '/media/f.jpg', 0, ${Date.now()})`,
        );
      }
    }
  }
});
afterAll(() => t.close());

describe("every filter and search pages to the last matching review", () => {
  it("the seeded data has ties in the date at page boundaries", async () => {
    const { n, dates } = (await one(t.services.db, sql`SELECT count(*) AS n, count(DISTINCT created_ms) AS dates FROM reviews WHERE store_id = ${TEST_STORE_ID}`)) as { n: number; dates: number };
    expect(dates).toBeLessThan(n / 5);
  });

  for (const scope of [
    { name: "product", path: `${S}/products/shopify-834/reviews`, sql: sql` AND r.product_id = ${"834"}` },
    { name: "store", path: `${S}/reviews`, sql: sql`` },
  ]) {
    it(`${scope.name}: every order × filter, small pages, equal one unpaged query (set and order)`, async () => {
      let compared = 0;
      for (const filter of filters()) {
        for (const order of ORDERS) {
          const expected = await unpaged(scope.sql, filter.sql, order);
          const label = `${scope.name} ${filter.name} ${order}`;
          expect(expected.length, label).toBeGreaterThan(0);
          // A page size that cuts the list into about five pages, and 3 (boundaries elsewhere in the ties).
          for (const limit of new Set([3, Math.min(25, Math.max(1, Math.ceil(expected.length / 5)))])) {
            const got = await paged(`${scope.path}?${filter.query}&orderBy=${encodeURIComponent(order)}&limit=${limit}`);
            expect(new Set(got.ids).size, `${label} limit ${limit}: no review twice`).toBe(got.ids.length);
            expect(got.ids, `${label} limit ${limit}`).toEqual(expected);
            expect(got.pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(150);
    }, 120_000);
  }
});

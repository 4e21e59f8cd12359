/**
 * Reviews list filters and search over a store with thousands of matches (issue #23 item 2; docs/api.md "Search and
 * filters"): 12,000 real reviews of the shared data file, so that a common filter or search keeps more than
 * `FEW_MATCHES` reviews and the listing walks an index in the requested order, while a rare one drives from its few
 * matches. The first pages of each answer equal the reviews sorted by SQL. Runs on SQLite and PostgreSQL, whose plans
 * differ; not behind the Varnish front, whose filter and search answers server/reviews/search-filters.api.test.ts
 * checks (test/engine-suites.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { OTHER_STORE_ID, seedRealReviews } from "../../test/fixtures.ts";
import type { ListReviewsResponse } from "../contract/storefront.ts";
import { FEW_MATCHES, reviewSearchMatch } from "./reviews.repo.ts";
import { sql, value, values } from "../db/database.ts";
import { searchMatchSql } from "../../test/search-oracle.ts";

let t: TestServer;

async function get(url: string): Promise<{ status: number; body: ListReviewsResponse & { error?: { description: string } } }> {
  const res = await fetch(t.url(url));
  return { status: res.status, body: await res.json() };
}

/** SQL over alias r: the review matches the FTS5 query `match` in the search index. */
const searchSql = (match: string) => searchMatchSql(t.services.db, match);

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe("a store where filters keep thousands of reviews (the index-walking plans)", () => {
  const O = `/v1/stores/${OTHER_STORE_ID}/reviews`;
  const ORDER_SQL: Record<string, string> = {
    "date desc": "r.created_ms DESC, r.review_id DESC",
    "helpful desc": "r.helpful_count DESC, r.created_ms DESC, r.review_id DESC",
    "rating asc": "r.rating ASC, r.created_ms DESC, r.review_id DESC",
  };
  /** The first `n` IDs of the store's published reviews that `condition` keeps, in `orderBy`. */
  const firstOf = async (condition: string, orderBy: string, n: number) =>
    (await values(
      t.services.db,
      sql`SELECT r.review_id FROM reviews r WHERE r.store_id = ${OTHER_STORE_ID} AND r.status = 'published' AND (${sql.raw(condition)}) ORDER BY ${sql.raw(ORDER_SQL[orderBy])} LIMIT ${n}`,
    )) as string[];
  const count = async (condition: string) =>
    (await value(t.services.db, sql`SELECT count(*) FROM reviews r WHERE r.store_id = ${OTHER_STORE_ID} AND r.status = 'published' AND (${sql.raw(condition)})`)) as number;
  /** The first `pages` pages of a listing, following nextUrl. */
  async function pagesOf(url: string, pages: number): Promise<string[]> {
    const out: string[] = [];
    let next: string | undefined = url;
    for (let i = 0; i < pages && next; i++) {
      const { status, body } = await get(next);
      expect(status, JSON.stringify(body)).toBe(200);
      out.push(...body.reviews.map((r) => r.reviewId));
      next = body.nextUrl ? `/v1${body.nextUrl}` : undefined;
    }
    expect(new Set(out).size).toBe(out.length);
    return out;
  }
  const matchSql = searchSql;
  /** The index query the listing runs for a search text (the last word a prefix, as a shopper types). */
  const searchOf = (text: string) => reviewSearchMatch(text)!;

  beforeAll(async () => {
    await seedRealReviews(t.services, { storeId: OTHER_STORE_ID, limit: 12_000 });
  });

  it("pages through common filters and searches in every order exactly as the reviews sort", async () => {
    const cases: [string, string][] = [
      ["rating=5", "r.rating = 5"],
      ["search=dress", matchSql(searchOf("dress"))], // thousands of matches: the set of matches, read once
      ["search=the", matchSql(searchOf("the"))], // nearly every review: one lookup per review walked
      ["search=the&rating=4,5", `r.rating IN (4, 5) AND ${matchSql(searchOf("the"))}`],
      ["search=dress&rating=1", `r.rating = 1 AND ${matchSql(searchOf("dress"))}`], // few 1-star reviews drive
      ["search=zipper", matchSql(searchOf("zipper"))], // few matches drive
    ];
    for (const [query, condition] of cases) {
      for (const orderBy of Object.keys(ORDER_SQL)) {
        const got = await pagesOf(`${O}?${query}&orderBy=${encodeURIComponent(orderBy)}&limit=25`, 3);
        expect(got, `${query} ${orderBy}`).toEqual(await firstOf(condition, orderBy, 75));
      }
    }
    expect(await count("r.rating = 5")).toBeGreaterThan(FEW_MATCHES);
    expect(await count(matchSql(searchOf("dress")))).toBeGreaterThan(FEW_MATCHES);
    expect(await count(matchSql(searchOf("the")))).toBeGreaterThan(10_000);
    expect(await count(matchSql(searchOf("zipper")))).toBeLessThan(FEW_MATCHES);
    expect(await count("r.rating = 1")).toBeLessThan(FEW_MATCHES);
  });

  it("a filter nothing matches answers an empty page", async () => {
    for (const query of ["verified=true", "media=any", "search=qqqzzznothing", "search=dress&verified=true&rating=5"]) {
      const { status, body } = await get(`${O}?${query}`);
      expect(status).toBe(200);
      expect(body.reviews, query).toEqual([]);
      expect(body.nextUrl).toBeUndefined();
    }
  });
});

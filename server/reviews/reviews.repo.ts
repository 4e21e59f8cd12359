/**
 * Reviews, review media, questions and answers: all their SQL.
 * Listings are keyset scans over the partial indexes of migration 001 (docs/api.md, Paging: never OFFSET).
 */
import { all, dialect, one, readSnapshot, run, sql, value, type Db, type RawBuilder } from "../db/database.ts";
import { restoreHighlights, tsqueryOf } from "../db/text-search.ts";
import { reviewSearchWords, type AttributeFilter, type QuestionOrder, type ReviewMediaFilter, type ReviewOrder, type ReviewScope } from "../contract/storefront.ts";

export type ReviewStatus = "pending" | "published" | "rejected";

export type ReviewRow = {
  review_id: string;
  store_id: string;
  product_id: string;
  group_id: string | null;
  variant_id: string | null;
  variant_name: string | null;
  rating: number;
  title: string;
  body: string;
  created_ms: number;
  updated_ms: number | null;
  helpful_count: number;
  unhelpful_count: number;
  is_recommended: number | null;
  is_incentivized: number;
  language_code: string | null;
  status: ReviewStatus;
  reviewer_name: string;
  reviewer_email?: string | null;
  verified_status: "verified-buyer" | "verified-reviewer" | "unverified";
  reviewer_country_code: string | null;
  reviewer_country_name: string | null;
  reviewer_zone_code: string | null;
  media_count: number;
  reply_body: string | null;
  reply_created_ms: number | null;
  product_attributes_json: string | null;
  attributes_with_rating_json: string | null;
  has_media: number;
  rating_inverse: number;
  helpful_inverse: number;
  product_name: string;
  product_url: string | null;
  product_image_url: string | null;
};

/**
 * A row of a storefront listing page: the review's own columns the storefront shows, without the
 * product's (read once per product, `productsOf`), the store ID, status or generated sort columns.
 */
export type ListedReviewRow = Pick<
  ReviewRow,
  | "review_id"
  | "product_id"
  | "variant_id"
  | "variant_name"
  | "rating"
  | "title"
  | "body"
  | "created_ms"
  | "updated_ms"
  | "helpful_count"
  | "unhelpful_count"
  | "is_recommended"
  | "is_incentivized"
  | "language_code"
  | "reviewer_name"
  | "verified_status"
  | "reviewer_country_code"
  | "reviewer_country_name"
  | "reviewer_zone_code"
  | "media_count"
  | "reply_body"
  | "reply_created_ms"
  | "product_attributes_json"
  | "attributes_with_rating_json"
>;

/** The product fields a listed review shows. */
export type ListedProductRow = { product_id: string; name: string; url: string | null; image_url: string | null };

export type MediaRow = {
  media_id: string;
  review_id: string;
  product_id: string;
  type: "image" | "video";
  alt: string | null;
  thumbnail_url: string;
  large_url: string;
  full_size_url: string;
  stream_url: string | null;
  created_ms: number;
  rating: number;
  reviewer_name: string;
  position: number;
};

export type QuestionRow = { question_id: string; product_id: string; body: string; asker_name: string; created_ms: number; helpful_count: number; unhelpful_count: number };
export type AnswerRow = {
  answer_id: string;
  question_id: string;
  body: string;
  author_name: string;
  is_store_answer: number;
  created_ms: number;
  helpful_count: number;
  unhelpful_count: number;
};
export type AggregateRow = {
  review_count: number;
  rating_total: number;
  level1: number;
  level2: number;
  level3: number;
  level4: number;
  level5: number;
  recommended_count: number;
};
/** The average of one rated product attribute over a scope's published reviews (aggregate `attributeRatings`). */
export type AttributeRatingRow = { title: string; type: string; value: number; minLabel: string; midLabel: string; maxLabel: string };

/** Sort column (besides created_ms, question_id) and direction of each question order (docs/api.md, Okendo-compatible); null: by date only. */
export const QUESTION_ORDER_SPECS: Record<QuestionOrder, { key: "helpful_count" | "unhelpful_count" | null; dir: "ASC" | "DESC" }> = {
  "date desc": { key: null, dir: "DESC" },
  "date asc": { key: null, dir: "ASC" },
  "helpful desc": { key: "helpful_count", dir: "DESC" },
  "unhelpful desc": { key: "unhelpful_count", dir: "DESC" },
  // No meaning for questions: newest first.
  "helpful asc": { key: null, dir: "DESC" },
  "rating desc": { key: null, dir: "DESC" },
  "rating asc": { key: null, dir: "DESC" },
  "has_media desc": { key: null, dir: "DESC" },
};

/** Sort column (besides created_ms, review_id) and scan direction of each order (docs/api.md, Query parameters and limits: ties newest first). */
export const ORDER_SPECS: Record<ReviewOrder, { key: string | null; dir: "ASC" | "DESC"; index: string }> = {
  "date desc": { key: null, dir: "DESC", index: "date" },
  "date asc": { key: null, dir: "ASC", index: "date" },
  "rating desc": { key: "rating", dir: "DESC", index: "rating" },
  "rating asc": { key: "rating_inverse", dir: "DESC", index: "rating_inverse" },
  "helpful desc": { key: "helpful_count", dir: "DESC", index: "helpful" },
  "helpful asc": { key: "helpful_inverse", dir: "DESC", index: "helpful_inverse" },
  "has_media desc": { key: "has_media", dir: "DESC", index: "media" },
  "unhelpful desc": { key: "unhelpful_count", dir: "DESC", index: "unhelpful" },
};

/** The value of an order's sort column (ORDER_SPECS key) for a row, generated columns computed as migration 001 defines them. */
function sortValue(row: ListedReviewRow, key: string): number {
  switch (key) {
    case "rating":
      return row.rating;
    case "rating_inverse":
      return -row.rating;
    case "helpful_count":
      return row.helpful_count;
    case "helpful_inverse":
      return -row.helpful_count;
    case "has_media":
      return row.media_count > 0 ? 1 : 0;
    case "unhelpful_count":
      return row.unhelpful_count;
    default:
      throw new Error(`no sort column ${key}`);
  }
}

/** The cursor key of a review row for an order: [sortValue?, created_ms, review_id]. */
export function reviewCursorKey(row: ListedReviewRow, order: ReviewOrder): (string | number)[] {
  const { key } = ORDER_SPECS[order];
  const base = [row.created_ms, row.review_id];
  return key ? [sortValue(row, key), ...base] : base;
}

/** The scope's condition on table alias `alias` (code-owned), with a leading AND; nothing for the store scope. */
function scopeWhere(scope: ReviewScope, alias: string): RawBuilder<unknown> {
  switch (scope.type) {
    case "store":
      return sql``;
    case "product":
      return sql` AND ${sql.raw(alias)}.product_id = ${scope.productId}`;
    case "group":
      return sql` AND ${sql.raw(alias)}.group_id = ${scope.groupId}`;
  }
}

/** One rated product attribute as a review carries it (Okendo's `attributesWithRating`): `value` 1..5 (`range`) or -1..1 (`centered-range`). */
export type RatedAttribute = { title: string; type: "range" | "centered-range"; value: number; minLabel: string; midLabel: string; maxLabel: string };

export type NewReview = {
  reviewId: string;
  storeId: string;
  productId: string;
  rating: number;
  title: string;
  body: string;
  createdMs: number;
  status: ReviewStatus;
  reviewerName: string;
  reviewerEmail?: string | null;
  verifiedStatus?: ReviewRow["verified_status"];
  helpfulCount?: number;
  unhelpfulCount?: number;
  isRecommended?: boolean | null;
  isIncentivized?: boolean;
  languageCode?: string | null;
  variantId?: string | null;
  variantName?: string | null;
  productAttributes?: unknown;
  attributesWithRating?: RatedAttribute[];
  source?: string | null;
  sourceKey?: string | null;
  reviewerCountryCode?: string | null;
  reviewerCountryName?: string | null;
  reviewerZoneCode?: string | null;
};

/**
 * What a storefront listing keeps (all optional, combined with AND; docs/api.md "Search and filters"):
 * `keyword` (AI keyword), `attributes` (product attribute filters, docs/api.md, Okendo-compatible), `ratings` (star levels,
 * any of), `media` (at least one published media item of that kind), `verifiedBuyers` (verified-buyer
 * reviews only) and `search` (an FTS5 query over title and body from `reviewSearchMatch`).
 */
export type ReviewListFilters = {
  keyword?: string;
  attributes?: AttributeFilter[];
  ratings?: number[];
  media?: ReviewMediaFilter;
  verifiedBuyers?: boolean;
  search?: string;
};

/** The shortest last word taken as a prefix (shorter ones would match a large part of the index). */
export const SEARCH_PREFIX_MIN_CHARS = 3;

/**
 * The FTS5 query (migration 084's `review_search`) for a shopper's search text: each whitespace-separated
 * piece becomes one quoted phrase of its words (`reviewSearchWords`), the phrases ANDed. Quoting makes every
 * word a plain token (no operators or column filters from the shopper); the words hold only letters, digits
 * and marks, so no quote can end a phrase early. "don't fit" gives `"don t" "fit"`.
 * The last word is also a prefix (FTS5 `"..."*`) when the text ends in it (no space or punctuation after) and it has at
 * least SEARCH_PREFIX_MIN_CHARS characters, so a shopper still typing finds reviews: "zip" finds "zipper",
 * "comfor" finds "comfortable". The star is ours, never the shopper's.
 * @returns the query, or null when the text has no word (the caller answers 400).
 */
export function reviewSearchMatch(text: string): string | null {
  const phrases = text
    .split(/\s+/)
    .map((piece) => reviewSearchWords(piece))
    .filter((words) => words.length > 0);
  if (!phrases.length) return null;
  const lastWord = phrases.at(-1)!.at(-1)!;
  const prefix = /[\p{L}\p{N}\p{M}]$/u.test(text) && [...lastWord].length >= SEARCH_PREFIX_MIN_CHARS;
  return phrases.map((words, i) => `"${words.join(" ")}"${prefix && i === phrases.length - 1 ? "*" : ""}`).join(" ");
}

/** The text of one review with the matched words of a search wrapped in `open` / `close` markers (FTS5 highlight()). */
export type HighlightedText = { review_id: string; title: string; body: string };

/**
 * Read plans of filtered listings (`listPublished`; docs/performance.md "Review search and filters").
 * - FEW_MATCHES: a filter that keeps fewer reviews (and fewer than a walk of the keyset index would read)
 *   drives the read: its reviews are looked up by rowid and sorted (~1.7 ms for 2,000).
 * - SEARCH_COUNT_CAP: search matches are counted up to this many (a one-word search counts 20,000 in about 1 ms), and
 *   estimated beyond (`searchStats`).
 * - While walking an index, the search is tested one of two ways, whichever the cost model says is cheaper:
 *   the set of all its matches read once (SET_US_PER_MATCH per match), or a lookup in the search index per
 *   review walked (LOOKUP_US_PER_PHRASE per phrase of the query; the walk is about (limit + 1) × reviews /
 *   matches long, at most the scope).
 */
export const FEW_MATCHES = 2000;
const SEARCH_COUNT_CAP = 5000;
const SET_US_PER_MATCH = 0.25;
const LOOKUP_US_PER_PHRASE = 25;

/** Create the reviews data module over `db`. */
export function reviewsRepo(db: Db) {
  // PostgreSQL has no rowid, INDEXED BY or json_each: its branches below key reviews by review_id and read a JSON
  // array argument with jsonb_array_elements(_text). A list travels as one JSON text parameter (one SQL text for
  // any length: one cached statement on SQLite).
  const postgres = dialect(db) === "postgres";
  /** A subquery of the text values of a JSON array (product, review, question IDs; attribute options). */
  const textList = (values: readonly string[]) => (postgres ? sql`SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)` : sql`SELECT value FROM json_each(${JSON.stringify(values)})`);
  /** A subquery of the integer values of a JSON array (star levels). */
  const integerList = (values: readonly number[]) =>
    postgres ? sql`SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)::bigint` : sql`SELECT value FROM json_each(${JSON.stringify(values)})`;
  /** A review's key in the row-set subqueries of driving filters: rowid (SQLite), review_id (PostgreSQL). */
  const ROW_KEY = postgres ? "review_id" : "rowid";
  /** The elements of a JSON array column (reviews' attribute columns), as rows `a` with `a.value` (object elements are tested by the caller). */
  const jsonElements = (column: string) =>
    sql.raw(postgres ? `jsonb_array_elements(CASE WHEN jsonb_typeof(${column}::jsonb) = 'array' THEN ${column}::jsonb ELSE '[]'::jsonb END) a` : `json_each(${column}) a`);
  // The listing reads only what a storefront review shows (ListedReviewRow): materialising a column costs
  // about 0.2 µs per row, and the product's name and links come once per page from productsOf, not per row.
  // Explicit columns (not r.*): e-mail and import keys never leave through it.
  const LISTED_COLUMNS = sql.raw(`r.review_id, r.product_id, r.variant_id, r.variant_name, r.rating, r.title, r.body, r.created_ms, r.updated_ms,
    r.helpful_count, r.unhelpful_count, r.is_recommended, r.is_incentivized, r.language_code, r.reviewer_name, r.verified_status,
    r.reviewer_country_code, r.reviewer_country_name, r.reviewer_zone_code, r.media_count, r.reply_body, r.reply_created_ms,
    r.product_attributes_json, r.attributes_with_rating_json`);
  // A whole ReviewRow (`get`): the listed columns plus the rest of the review and its product's.
  const REVIEW_COLUMNS = sql`${LISTED_COLUMNS}, r.store_id, r.group_id, r.status, r.has_media, r.rating_inverse, r.helpful_inverse,
    p.name AS product_name, p.url AS product_url, p.image_url AS product_image_url`;

  /** The maintained aggregate row of a scope, or undefined. */
  const aggregateOf = (storeId: string, scope: ReviewScope) =>
    one<AggregateRow>(
      db,
      sql`
    SELECT review_count, rating_total, level1, level2, level3, level4, level5, recommended_count FROM review_aggregates
    WHERE store_id = ${storeId} AND scope_type = ${scope.type} AND scope_id = ${scope.type === "product" ? scope.productId : scope.type === "group" ? scope.groupId : ""}`,
    );

  /**
   * The filter of a listing that keeps fewer than FEW_MATCHES reviews, as a rowid subquery and how many it keeps
   * (see `listPublished`), or undefined when every filter keeps more (or there is none).
   * `searchMatches` is the search's estimated count (all stores: an upper bound of the scope's); the others
   * are counted up to FEW_MATCHES over an index (the partial indexes of verified buyers of migration 084,
   * the scope's has-media or rating index) and drive only when they are also sparse in the scope.
   * `scopeCount` gives the scope's published reviews (read once per listing).
   */
  async function drivingFilter(
    storeId: string,
    scope: ReviewScope,
    filters: ReviewListFilters,
    searchMatches: number,
    limit: number,
    scopeCount: () => Promise<number>,
  ): Promise<{ name: string; query: RawBuilder<unknown>; count: number } | undefined> {
    if (filters.search !== undefined && searchMatches < FEW_MATCHES) {
      return postgres
        ? { name: "search", query: sql`SELECT review_id FROM review_search WHERE document @@ to_tsquery('chorus_english', ${tsqueryOf(filters.search)})`, count: searchMatches }
        : { name: "search", query: sql`SELECT rowid FROM review_search WHERE review_search MATCH ${filters.search}`, count: searchMatches };
    }
    const inScope = scopeWhere(scope, "x");
    const key = sql.raw(`x.${ROW_KEY}`);
    const candidates: { name: string; query: RawBuilder<unknown> }[] = [];
    if (filters.verifiedBuyers) {
      candidates.push({
        name: "verified",
        query: sql`SELECT ${key} FROM reviews x WHERE x.store_id = ${storeId} AND x.status = 'published' AND x.verified_status = 'verified-buyer'${inScope}`,
      });
    }
    if (filters.media !== undefined) {
      const hint = sql.raw(postgres ? "" : ` INDEXED BY reviews_${scope.type}_media`);
      candidates.push({
        name: "media",
        query: sql`SELECT ${key} FROM reviews x${hint} WHERE x.store_id = ${storeId} AND x.status = 'published'${inScope} AND x.has_media = 1`,
      });
    }
    if (filters.ratings) {
      const hint = sql.raw(postgres ? "" : ` INDEXED BY reviews_${scope.type}_rating`);
      candidates.push({
        name: "rating",
        query: sql`SELECT ${key} FROM reviews x${hint} WHERE x.store_id = ${storeId} AND x.status = 'published'${inScope} AND x.rating IN (${integerList(filters.ratings)})`,
      });
    }
    if (!candidates.length) return undefined;
    // A filter that keeps `count` of the scope's reviews fills a page after walking about (limit + 1) × reviewsInScope / count
    // of them: it drives only when its reviews are fewer than that walk (looking one up costs about a walk step).
    const reviewsInScope = await scopeCount();
    for (const c of candidates) {
      const count = (await value<number>(db, sql`SELECT count(*) AS n FROM (${c.query} LIMIT ${sql.raw(String(FEW_MATCHES))}) AS kept`)) ?? 0;
      if (count < FEW_MATCHES && count * count < (limit + 1) * reviewsInScope) return { ...c, count };
    }
    return undefined;
  }

  /**
   * How many reviews (of all stores) the search `match` finds, `matches`: exact below SEARCH_COUNT_CAP;
   * above it, extrapolated from how far into the rowids (the index's order) the first SEARCH_COUNT_CAP
   * matches reach, as words are spread evenly over the reviews' insertion order. `rows`: the span of the
   * reviews' rowids (about how many reviews there are).
   */
  async function searchStats(match: string): Promise<{ matches: number; rows: number }> {
    // PostgreSQL: counted up to FEW_MATCHES only, whether the search drives the read (its planner chooses how to
    // test the search otherwise, see listPublished); a word in most reviews is counted by a sequential read of
    // review_search until FEW_MATCHES (~7 ms), a rarer one through the GIN index.
    if (postgres) {
      const n =
        (await value<number>(
          db,
          sql`SELECT count(*) AS n FROM (SELECT 1 FROM review_search WHERE document @@ to_tsquery('chorus_english', ${tsqueryOf(match)})
        LIMIT ${sql.raw(String(FEW_MATCHES))}) AS m`,
        )) ?? 0;
      return { matches: n, rows: n };
    }
    // One statement: the capped count and the span of the rowids (each of min and max alone is one b-tree descent;
    // both in one SELECT over the table would scan it).
    const { n, last, lo, hi } = (await one<{ n: number; last: number | null; lo: number | null; hi: number | null }>(
      db,
      sql`
      SELECT count(*) AS n, max(rowid) AS last, (SELECT min(rowid) FROM reviews) AS lo, (SELECT max(rowid) FROM reviews) AS hi
      FROM (SELECT rowid FROM review_search WHERE review_search MATCH ${match} LIMIT ${sql.raw(String(SEARCH_COUNT_CAP))})`,
    ))!;
    const rows = lo === null || hi === null ? 0 : hi - lo + 1;
    if (n < SEARCH_COUNT_CAP || last === null || lo === null) return { matches: n, rows };
    return { matches: Math.round((n * rows) / Math.max(last - lo + 1, 1)), rows };
  }

  /**
   * How a walk over a keyset index tests the search (see FEW_MATCHES): "set" reads all matches once, "lookup"
   * asks the search index about each review walked. The walk reads about (limit + 1) / (matches / rows)
   * reviews (the matches' density), at most the scope's (`reviewsInScope`); with a driving filter, its `driven` reviews.
   * `phrases` is the query's.
   */
  function searchTest(reviewsInScope: number, limit: number, stats: { matches: number; rows: number }, phrases: number, driven?: number): "set" | "lookup" {
    const walked = driven ?? Math.min(reviewsInScope, ((limit + 1) * stats.rows) / Math.max(stats.matches, 1));
    return walked * LOOKUP_US_PER_PHRASE * phrases < stats.matches * SET_US_PER_MATCH ? "lookup" : "set";
  }

  return {
    /** Run `fn`'s reads on one snapshot of the database (database.ts readSnapshot). @returns a promise of what `fn` resolves to. */
    snapshot<T>(fn: () => Promise<T>): Promise<T> {
      return readSnapshot(db, fn);
    },

    /**
     * One page of published reviews in `scope`, ordered by `order`, after `after` (a cursor key), keeping
     * only those `filters` match. Resolves to up to `limit + 1` rows so the caller can tell whether another page exists.
     *
     * Two plans (docs/performance.md "Review search and filters"). A filter that keeps few reviews (fewer than
     * FEW_MATCHES by a capped count: the search's matches, the scope's verified buyers, reviews with media or
     * with the ratings asked for, probed in that order) drives the read: its reviews are looked up by rowid and
     * sorted, so the cost follows the matches, not the scope. Otherwise every filter keeps at least FEW_MATCHES
     * reviews and the read walks the keyset index of the scope and order, testing each review, until the page
     * is full (migration 001 indexes, as without filters); the search is tested as `searchTest` chooses.
     */
    async listPublished(storeId: string, scope: ReviewScope, order: ReviewOrder, limit: number, after?: (string | number)[], filters: ReviewListFilters = {}): Promise<ListedReviewRow[]> {
      const { key, dir, index } = ORDER_SPECS[order];
      const cols = [...(key ? [`r.${key}`] : []), "r.created_ms", "r.review_id"];
      const { keyword, attributes = [], ratings, media, verifiedBuyers, search } = filters;
      // The scope's published reviews, read at most once per listing (the plan choices below may need it).
      let scopeReviews: Promise<number> | undefined;
      const scopeCount = () => (scopeReviews ??= aggregateOf(storeId, scope).then((a) => a?.review_count ?? 0));
      const stats = search === undefined ? { matches: 0, rows: 0 } : await searchStats(search);
      const driver = await drivingFilter(storeId, scope, filters, stats.matches, limit, scopeCount);
      const conditions: RawBuilder<unknown>[] = [];
      // keyword filter: reviews in which the AI keyword engine identified the keyword (ai_review_keywords, migration 020)
      if (keyword !== undefined) conditions.push(sql`r.review_id IN (SELECT k.review_id FROM ai_review_keywords k WHERE k.store_id = ${storeId} AND k.keyword = ${keyword})`);
      // attribute filters (docs/api.md, Okendo-compatible): the review has each attribute with one of its options
      for (const f of attributes) {
        conditions.push(sql`EXISTS (SELECT 1 FROM ${jsonElements("r.product_attributes_json")} WHERE a.value ->> 'title' = ${f.title} AND a.value ->> 'value' IN (${textList(f.options)}))`);
      }
      if (ratings) conditions.push(sql`r.rating IN (${integerList(ratings)})`);
      if (verifiedBuyers) conditions.push(sql`r.verified_status = 'verified-buyer'`);
      // media_count counts published media (migration 001 triggers); a kind needs one published item of it
      if (media !== undefined) conditions.push(sql`r.media_count > 0`);
      if (media === "photos" || media === "videos") {
        conditions.push(sql`EXISTS (SELECT 1 FROM review_media m WHERE m.review_id = r.review_id AND m.status = 'published' AND m.type = ${sql.lit(media === "photos" ? "image" : "video")})`);
      }
      // search: the review's row is among the index's matches (migration 084; rowid = reviews.rowid), tested
      // last so that only reviews the other filters kept are looked up.
      if (search !== undefined && driver?.name !== "search") {
        const phrases = search.split('" "').length;
        // `+r.rowid`: a test, never a second rowid lookup for the planner to drive the read with.
        conditions.push(
          postgres
            ? sql`EXISTS (SELECT 1 FROM review_search s WHERE s.review_id = r.review_id AND s.document @@ to_tsquery('chorus_english', ${tsqueryOf(search)}))`
            : searchTest(driver ? 0 : await scopeCount(), limit, stats, phrases, driver?.count) === "set"
              ? sql`+r.rowid IN (SELECT rowid FROM review_search WHERE review_search MATCH ${search})`
              : sql`EXISTS (SELECT 1 FROM review_search WHERE review_search MATCH ${search} AND review_search.rowid = r.rowid)`,
        );
      }
      const keyset = after ? sql` AND (${sql.raw(cols.join(", "))}) ${sql.raw(dir === "DESC" ? "<" : ">")} (${sql.join(after)})` : sql``;
      // Without a driving filter, INDEXED BY the keyset index of this scope and order (migration 001): left to
      // itself the planner may take another index that yields the same order, e.g. (store_id, status,
      // created_ms), and walk every published review of the store to find one product's page. With one,
      // NOT INDEXED leaves the planner only the rowid lookups of the driving filter's reviews.
      // PostgreSQL has neither: its planner picks the index, and a driving filter's reviews are matched by review_id.
      const hint = sql.raw(postgres ? "" : driver ? "NOT INDEXED" : `INDEXED BY reviews_${scope.type}_${index}`);
      const driven = driver ? sql`r.${sql.raw(ROW_KEY)} IN (${driver.query}) AND ` : sql``;
      const tests = conditions.reduce((acc, c) => sql`${acc} AND ${c}`, sql``);
      return all<ListedReviewRow>(
        db,
        sql`
        SELECT ${LISTED_COLUMNS} FROM reviews r ${hint}
        WHERE ${driven}r.store_id = ${storeId} AND r.status = 'published'${scopeWhere(scope, "r")}${tests}${keyset}
        ORDER BY ${sql.raw(cols.map((c) => `${c} ${dir}`).join(", "))} LIMIT ${limit + 1}`,
      );
    },

    /**
     * The title and body of the given reviews with the words `match` (an FTS5 query of `reviewSearchMatch`)
     * matched wrapped in `open` and `close` (FTS5 highlight(): whole tokens, stemmed matches included), read
     * from the stored text. Reviews the query does not match are left out.
     */
    async searchHighlights(reviewIds: string[], match: string, open: string, close: string): Promise<HighlightedText[]> {
      if (postgres) {
        // ts_headline over the text as indexed (chorus_search_text), its marks put back into the text as typed.
        const options = `HighlightAll=true, StartSel="${open}", StopSel="${close}"`;
        const rows = await all<{ review_id: string; title: string; body: string; markedTitle: string; markedBody: string }>(
          db,
          sql`
          SELECT r.review_id, r.title, r.body,
            ts_headline('chorus_english', chorus_search_text(r.title), q.query, ${options}) AS "markedTitle",
            ts_headline('chorus_english', chorus_search_text(r.body), q.query, ${options}) AS "markedBody"
          FROM (SELECT to_tsquery('chorus_english', ${tsqueryOf(match)}) AS query) q, reviews r JOIN review_search s ON s.review_id = r.review_id
          WHERE r.review_id IN (${textList(reviewIds)}) AND s.document @@ q.query`,
        );
        return rows.map((r) => ({
          review_id: r.review_id,
          title: restoreHighlights(r.title, r.markedTitle, open, close),
          body: restoreHighlights(r.body, r.markedBody, open, close),
        }));
      }
      // One review at a time: MATCH plus a rowid equality is a seek in the index, not a walk over every match.
      const out: HighlightedText[] = [];
      for (const id of reviewIds) {
        out.push(
          ...(await all<HighlightedText>(
            db,
            sql`
          SELECT ${id} AS review_id, highlight(review_search, 0, ${open}, ${close}) AS title, highlight(review_search, 1, ${open}, ${close}) AS body
          FROM review_search WHERE review_search MATCH ${match} AND rowid = (SELECT rowid FROM reviews WHERE review_id = ${id})`,
          )),
        );
      }
      return out;
    },

    /** One published review of the store (the storefront's columns), or undefined. */
    getPublished(storeId: string, reviewId: string): Promise<ListedReviewRow | undefined> {
      return one<ListedReviewRow>(db, sql`SELECT ${LISTED_COLUMNS} FROM reviews r WHERE r.store_id = ${storeId} AND r.review_id = ${reviewId} AND r.status = 'published'`);
    },

    /**
     * The (title, value) pairs of the product attributes of a product's published reviews, ordered by title
     * then value (string values only).
     */
    productAttributeValues(storeId: string, productId: string): Promise<{ title: string; value: string }[]> {
      return all<{ title: string; value: string }>(
        db,
        postgres
          ? sql`SELECT a.value ->> 'title' AS title, a.value ->> 'value' AS value
              FROM reviews r, ${jsonElements("r.product_attributes_json")}
              WHERE r.store_id = ${storeId} AND r.product_id = ${productId} AND r.status = 'published' AND r.product_attributes_json IS NOT NULL
                AND jsonb_typeof(a.value) = 'object' AND jsonb_typeof(a.value -> 'title') = 'string' AND jsonb_typeof(a.value -> 'value') = 'string'
              GROUP BY 1, 2 ORDER BY 1, 2`
          : sql`SELECT a.value ->> 'title' AS title, a.value ->> 'value' AS value
              FROM reviews r INDEXED BY reviews_product_attributes, json_each(r.product_attributes_json) a
              WHERE r.store_id = ${storeId} AND r.product_id = ${productId} AND r.status = 'published' AND r.product_attributes_json IS NOT NULL
                AND a.type = 'object' AND json_type(a.value, '$.title') = 'text' AND json_type(a.value, '$.value') = 'text'
              GROUP BY 1, 2 ORDER BY 1, 2`,
      );
    },

    /**
     * The average value of each rated product attribute over the published reviews of a product or group
     * (at most 20, by title); empty for the store scope (not computed) and when no review rated one.
     */
    async attributeRatings(storeId: string, scope: ReviewScope): Promise<AttributeRatingRow[]> {
      if (scope.type === "store") return [];
      const [index, column, id] = scope.type === "product" ? ["reviews_product_attribute_ratings", "product_id", scope.productId] : ["reviews_group_attribute_ratings", "group_id", scope.groupId];
      const inGroup = sql.raw(scope.type === "group" ? "AND r.group_id IS NOT NULL" : "");
      return all<AttributeRatingRow>(
        db,
        postgres
          ? sql`SELECT a.value ->> 'title' AS title, coalesce(a.value ->> 'type', '') AS type, avg((a.value ->> 'value')::double precision) AS value,
                coalesce(max(a.value ->> 'minLabel'), '') AS "minLabel", coalesce(max(a.value ->> 'midLabel'), '') AS "midLabel",
                coalesce(max(a.value ->> 'maxLabel'), '') AS "maxLabel"
              FROM reviews r, ${jsonElements("r.attributes_with_rating_json")}
              WHERE r.store_id = ${storeId} AND r.${sql.raw(column)} = ${id} AND r.status = 'published' AND r.attributes_with_rating_json IS NOT NULL
                ${inGroup}
                AND jsonb_typeof(a.value) = 'object' AND jsonb_typeof(a.value -> 'title') = 'string' AND jsonb_typeof(a.value -> 'value') = 'number'
              GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 20`
          : sql`SELECT a.value ->> 'title' AS title, coalesce(a.value ->> 'type', '') AS type, avg(a.value ->> 'value') AS value,
                coalesce(max(a.value ->> 'minLabel'), '') AS "minLabel", coalesce(max(a.value ->> 'midLabel'), '') AS "midLabel",
                coalesce(max(a.value ->> 'maxLabel'), '') AS "maxLabel"
              FROM reviews r INDEXED BY ${sql.raw(index)}, json_each(r.attributes_with_rating_json) a
              WHERE r.store_id = ${storeId} AND r.${sql.raw(column)} = ${id} AND r.status = 'published' AND r.attributes_with_rating_json IS NOT NULL
                ${inGroup}
                AND a.type = 'object' AND json_type(a.value, '$.title') = 'text' AND json_type(a.value, '$.value') IN ('integer', 'real')
              GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 20`,
      );
    },

    /** Number of published questions of a product (question_aggregate). */
    async publishedQuestionCount(storeId: string, productId: string): Promise<number> {
      return (await value<number>(db, sql`SELECT count(*) AS n FROM questions WHERE store_id = ${storeId} AND product_id = ${productId} AND status = 'published'`)) ?? 0;
    },

    /** Name and links of the given products of a store (the products of a listing page), in no particular order. */
    async productsOf(storeId: string, productIds: string[]): Promise<ListedProductRow[]> {
      if (productIds.length === 0) return [];
      // One product (every product-scope page): a plain key lookup, not a json_each join (~20 µs less).
      if (productIds.length === 1) return all<ListedProductRow>(db, sql`SELECT product_id, name, url, image_url FROM products WHERE store_id = ${storeId} AND product_id = ${productIds[0]}`);
      return all<ListedProductRow>(db, sql`SELECT product_id, name, url, image_url FROM products WHERE store_id = ${storeId} AND product_id IN (${textList(productIds)})`);
    },

    /** Published media of the given reviews, in upload order. */
    async mediaOfReviews(reviewIds: string[]): Promise<MediaRow[]> {
      if (reviewIds.length === 0) return [];
      return all<MediaRow>(
        db,
        sql`
        SELECT m.*, r.rating, r.reviewer_name FROM review_media m JOIN reviews r ON r.review_id = m.review_id
        WHERE m.review_id IN (${textList(reviewIds)}) AND m.status = 'published' ORDER BY m.review_id, m.position`,
      );
    },

    /** One page (limit + 1 rows) of published media of published reviews, newest first. */
    listPublishedMedia(storeId: string, scope: ReviewScope, limit: number, after?: (string | number)[]): Promise<MediaRow[]> {
      const keyset = after ? sql` AND (m.created_ms, m.media_id) < (${sql.join(after)})` : sql``;
      return all<MediaRow>(
        db,
        sql`
        SELECT m.*, r.rating, r.reviewer_name FROM review_media m JOIN reviews r ON r.review_id = m.review_id
        WHERE m.store_id = ${storeId} AND m.status = 'published' AND r.status = 'published'${scopeWhere(scope, "m")}${keyset}
        ORDER BY m.created_ms DESC, m.media_id DESC LIMIT ${limit + 1}`,
      );
    },

    /**
     * One page (limit + 1 rows) of published questions in `order` (QUESTION_ORDER_SPECS), after `after`
     * (a cursor key: [sort value?, created_ms, question_id]). Scope: product or group.
     */
    listPublishedQuestions(storeId: string, scope: ReviewScope, limit: number, after?: (string | number)[], order: QuestionOrder = "date desc"): Promise<QuestionRow[]> {
      const { key, dir } = QUESTION_ORDER_SPECS[order];
      const cols = [...(key ? [`q.${key}`] : []), "q.created_ms", "q.question_id"];
      const keyset = after ? sql` AND (${sql.raw(cols.join(", "))}) ${sql.raw(dir === "DESC" ? "<" : ">")} (${sql.join(after)})` : sql``;
      return all<QuestionRow>(
        db,
        sql`
        SELECT q.question_id, q.product_id, q.body, q.asker_name, q.created_ms, q.helpful_count, q.unhelpful_count FROM questions q
        WHERE q.store_id = ${storeId} AND q.status = 'published'${scopeWhere(scope, "q")}${keyset}
        ORDER BY ${sql.raw(cols.map((c) => `${c} ${dir}`).join(", "))} LIMIT ${limit + 1}`,
      );
    },

    /** Published, public answers of the given questions, oldest first. */
    async publicAnswers(questionIds: string[]): Promise<AnswerRow[]> {
      if (questionIds.length === 0) return [];
      return all<AnswerRow>(
        db,
        sql`
        SELECT answer_id, question_id, body, author_name, is_store_answer, created_ms, helpful_count, unhelpful_count FROM answers
        WHERE question_id IN (${textList(questionIds)}) AND status = 'published' AND is_public = 1
        ORDER BY created_ms, answer_id`,
      );
    },

    /** The maintained review aggregate of a scope (zeros when the scope has no published review). */
    async aggregate(storeId: string, scope: ReviewScope): Promise<AggregateRow> {
      return (await aggregateOf(storeId, scope)) ?? { review_count: 0, rating_total: 0, level1: 0, level2: 0, level3: 0, level4: 0, level5: 0, recommended_count: 0 };
    },

    /**
     * Insert a review (the product must exist). Idempotent on (store, source, sourceKey) and on reviewId.
     * @returns true when a row was inserted, false when it already existed.
     */
    async insert(r: NewReview): Promise<boolean> {
      const { changes } = await run(
        db,
        sql`
        INSERT INTO reviews (review_id, store_id, product_id, group_id, variant_id, variant_name, rating, title, body, created_ms,
          helpful_count, unhelpful_count, is_recommended, is_incentivized, language_code, status, reviewer_name, reviewer_email,
          verified_status, reviewer_country_code, reviewer_country_name, reviewer_zone_code, product_attributes_json, attributes_with_rating_json,
          source, source_key)
        VALUES (${r.reviewId}, ${r.storeId}, ${r.productId}, (SELECT group_id FROM products WHERE store_id = ${r.storeId} AND product_id = ${r.productId}),
          ${r.variantId ?? null}, ${r.variantName ?? null}, ${r.rating}, ${r.title}, ${r.body}, ${r.createdMs}, ${r.helpfulCount ?? 0},
          ${r.unhelpfulCount ?? 0}, ${r.isRecommended == null ? null : r.isRecommended ? 1 : 0}, ${r.isIncentivized ? 1 : 0},
          ${r.languageCode ?? null}, ${r.status}, ${r.reviewerName}, ${r.reviewerEmail ?? null}, ${r.verifiedStatus ?? "unverified"},
          ${r.reviewerCountryCode ?? null}, ${r.reviewerCountryName ?? null}, ${r.reviewerZoneCode ?? null},
          ${r.productAttributes === undefined ? null : JSON.stringify(r.productAttributes)},
          ${r.attributesWithRating?.length ? JSON.stringify(r.attributesWithRating) : null}, ${r.source ?? null}, ${r.sourceKey ?? null})
        ON CONFLICT DO NOTHING`,
      );
      return changes === 1;
    },

    /** Whether a review imported from (source, sourceKey) exists in the store. */
    async hasSourceKey(storeId: string, source: string, sourceKey: string): Promise<boolean> {
      return (await one(db, sql`SELECT 1 AS found FROM reviews WHERE store_id = ${storeId} AND source = ${source} AND source_key = ${sourceKey}`)) !== undefined;
    },

    /** A review by ID within a store (any status), or undefined. */
    get(storeId: string, reviewId: string): Promise<ReviewRow | undefined> {
      return one<ReviewRow>(
        db,
        sql`
        SELECT ${REVIEW_COLUMNS} FROM reviews r JOIN products p ON p.store_id = r.store_id AND p.product_id = r.product_id
        WHERE r.store_id = ${storeId} AND r.review_id = ${reviewId}`,
      );
    },

    /** Set a review's moderation status (aggregates follow by trigger). @returns false when no such review. */
    async setStatus(storeId: string, reviewId: string, status: ReviewStatus): Promise<boolean> {
      return (await run(db, sql`UPDATE reviews SET status = ${status}, updated_ms = ${Date.now()} WHERE store_id = ${storeId} AND review_id = ${reviewId}`)).changes === 1;
    },

    /** Count of reviews of a store by status (admin, import report). */
    async countByStatus(storeId: string): Promise<Record<ReviewStatus, number>> {
      const out: Record<ReviewStatus, number> = { pending: 0, published: 0, rejected: 0 };
      for (const r of await all<{ status: ReviewStatus; n: number }>(db, sql`SELECT status, count(*) AS n FROM reviews WHERE store_id = ${storeId} GROUP BY status`)) out[r.status] = r.n;
      return out;
    },
  };
}
export type ReviewsRepo = ReturnType<typeof reviewsRepo>;

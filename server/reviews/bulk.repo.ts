/**
 * Bulk loading of reviews for scale data (benchmarks): suspends the keyset indexes, the aggregate
 * insert triggers (counts, recommendations) and the search index's insert trigger while rows go in, then
 * rebuilds all three, which is ~10× faster than row-by-row upkeep.
 * Only for filling a store that nothing else is using at the time.
 */
import { dialect, type Db } from "../db/database.ts";
import type { NewReview } from "./reviews.repo.ts";

/** The insert triggers on reviews that bulk loading suspends (same names on both engines). */
const SUSPENDED_TRIGGERS = ["reviews_aggregate_insert", "reviews_recommended_insert", "review_search_insert"];

/**
 * Run `fill(insert)` with keyset indexes and the aggregate and search insert triggers dropped, then recreate
 * them from their original SQL, rebuild the search index and recompute `review_aggregates` of `storeId` from the rows.
 * On PostgreSQL the same triggers are disabled and enabled again (ALTER TABLE ... DISABLE TRIGGER; the indexes stay),
 * and the search index is rebuilt by `review_search_rebuild()` (server/db/postgres/003-search.sql).
 * @param fill receives `insert(review)`; it should call it inside its own transactions (batches).
 */
export function bulkLoadReviews(db: Db, storeId: string, fill: (insert: (r: NewReview) => void) => void): void {
  if (dialect(db) === "postgres") {
    // Those of the names that exist (PostgreSQL's reviews_aggregate_insert also keeps the recommendation counts).
    const names = db.prepare(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'reviews'::regclass AND tgname IN (${SUSPENDED_TRIGGERS.map((n) => `'${n}'`).join(", ")})`).pluck().all() as string[];
    const toggle = (state: "DISABLE" | "ENABLE") => db.exec(names.map((name) => `ALTER TABLE reviews ${state} TRIGGER ${name};`).join("\n"));
    toggle("DISABLE");
    try {
      fill(insertStatement(db));
    } finally {
      toggle("ENABLE");
      db.exec("SELECT review_search_rebuild()");
    }
    recomputeAggregates(db, storeId);
    return;
  }
  const suspended = db
    .prepare(`SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'reviews' AND ((type = 'index' AND name GLOB 'reviews_*_*' AND name <> 'reviews_source') OR (type = 'trigger' AND name IN (${SUSPENDED_TRIGGERS.map((n) => `'${n}'`).join(", ")})))`)
    .all() as { type: string; name: string; sql: string }[];
  for (const s of suspended) db.exec(`DROP ${s.type.toUpperCase()} "${s.name}"`);
  try {
    fill(insertStatement(db));
  } finally {
    for (const s of suspended) db.exec(s.sql);
    // The search index (migration 084) rebuilt from the table in one pass instead of row by row.
    if (suspended.some((s) => s.name === "review_search_insert")) db.exec("INSERT INTO review_search (review_search) VALUES ('rebuild')");
  }
  recomputeAggregates(db, storeId);
}

/** The bulk insert of one review (the aggregate, recommendation and search triggers are the caller's to suspend). */
function insertStatement(db: Db): (r: NewReview) => void {
  const stmt = db.prepare(
    `INSERT INTO reviews (review_id, store_id, product_id, group_id, rating, title, body, created_ms, helpful_count, unhelpful_count,
       is_recommended, language_code, status, reviewer_name, verified_status, source, source_key)
     VALUES (@reviewId, @storeId, @productId, (SELECT group_id FROM products WHERE store_id = @storeId AND product_id = @productId),
       @rating, @title, @body, @createdMs, @helpfulCount, 0, @isRecommended, @languageCode, @status, @reviewerName, 'unverified', @source, @sourceKey)`,
  );
  return (r) => {
    stmt.run({
      reviewId: r.reviewId, storeId: r.storeId, productId: r.productId, rating: r.rating, title: r.title, body: r.body, createdMs: r.createdMs,
      helpfulCount: r.helpfulCount ?? 0, isRecommended: r.isRecommended == null ? null : r.isRecommended ? 1 : 0, languageCode: r.languageCode ?? null,
      status: r.status, reviewerName: r.reviewerName, source: r.source ?? null, sourceKey: r.sourceKey ?? null,
    });
  };
}

/** Recompute `review_aggregates` of `storeId` (store, product and group scopes) from its published reviews, in one transaction. */
function recomputeAggregates(db: Db, storeId: string): void {
  const level = (condition: string) => `sum(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;
  const levels = `count(*), sum(rating), ${[1, 2, 3, 4, 5].map((l) => level(`rating = ${l}`)).join(", ")}, ${level("is_recommended = 1")}`;
  db.transaction(() => {
    db.prepare("DELETE FROM review_aggregates WHERE store_id = ?").run(storeId);
    const cols = "(store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5, recommended_count)";
    const where = "WHERE store_id = ? AND status = 'published'";
    db.prepare(`INSERT INTO review_aggregates ${cols} SELECT store_id, 'store', '', ${levels} FROM reviews ${where} GROUP BY store_id`).run(storeId);
    db.prepare(`INSERT INTO review_aggregates ${cols} SELECT store_id, 'product', product_id, ${levels} FROM reviews ${where} GROUP BY store_id, product_id`).run(storeId);
    db.prepare(`INSERT INTO review_aggregates ${cols} SELECT store_id, 'group', group_id, ${levels} FROM reviews ${where} AND group_id IS NOT NULL GROUP BY store_id, group_id`).run(storeId);
  })();
}

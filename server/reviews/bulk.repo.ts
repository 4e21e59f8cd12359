/**
 * Bulk loading of reviews for scale data (benchmarks): suspends the keyset indexes, the aggregate
 * insert triggers (counts, recommendations) and the search index's insert trigger while rows go in, then
 * rebuilds all three, which is ~10× faster than row-by-row upkeep.
 * Only for filling a store that nothing else is using at the time.
 */
import { dialect, exec, run, sql, transaction, values, all, type Db } from "../db/database.ts";
import type { NewReview } from "./reviews.repo.ts";

/** The insert triggers on reviews that bulk loading suspends (same names on both engines). */
const SUSPENDED_TRIGGERS = ["reviews_aggregate_insert", "reviews_recommended_insert", "review_search_insert"];

/**
 * Run `fill(insert)` with keyset indexes and the aggregate and search insert triggers dropped, then recreate
 * them from their original SQL, rebuild the search index and recompute `review_aggregates` of `storeId` from the rows.
 * On PostgreSQL the same triggers are disabled and enabled again (ALTER TABLE ... DISABLE TRIGGER; the indexes stay),
 * and the search index is rebuilt by `review_search_rebuild()` (server/db/schema/postgres.ts).
 *
 * Per engine: the suspension and the restoration are each one transaction of their own through the query helpers
 * (SQLite: DDL on the one connection while it is held, never interleaved with a query of another request; PostgreSQL:
 * transactional DDL, committed before `fill` starts, so the pool's other connections see the triggers disabled, and
 * disabled for every session of every node until restored: nothing else may write reviews meanwhile).
 * @param fill receives `insert(review)` (or `insert(reviews)`, a few hundred at a time); it should call it inside its own
 *   transactions (batches) and resolve when done.
 */
/** Insert one review, or a few hundred in one statement (bulkLoadReviews). */
export type BulkInsert = (reviews: NewReview | readonly NewReview[]) => Promise<void>;

export async function bulkLoadReviews(db: Db, storeId: string, fill: (insert: BulkInsert) => Promise<void>): Promise<void> {
  if (dialect(db) === "postgres") {
    // Those of the names that exist (PostgreSQL's reviews_aggregate_insert also keeps the recommendation counts).
    const names = await values<string>(db, sql`SELECT tgname FROM pg_trigger WHERE tgrelid = 'reviews'::regclass AND tgname IN (${sql.join(SUSPENDED_TRIGGERS)})`);
    const toggle = (state: "DISABLE" | "ENABLE") =>
      transaction(db, async () => {
        for (const name of names) await exec(db, `ALTER TABLE reviews ${state} TRIGGER ${name}`);
      });
    await toggle("DISABLE");
    try {
      await fill(insertReview(db));
    } finally {
      await toggle("ENABLE");
      await exec(db, "SELECT review_search_rebuild()");
    }
    await recomputeAggregates(db, storeId);
    return;
  }
  const suspended = await all<{ type: string; name: string; sql: string }>(
    db,
    sql`
    SELECT type, name, sql FROM sqlite_master
    WHERE tbl_name = 'reviews' AND ((type = 'index' AND name GLOB 'reviews_*_*' AND name <> 'reviews_source') OR (type = 'trigger' AND name IN (${sql.join(SUSPENDED_TRIGGERS)})))`,
  );
  await transaction(db, async () => {
    for (const s of suspended) await exec(db, `DROP ${s.type.toUpperCase()} "${s.name}"`);
  });
  try {
    await fill(insertReview(db));
  } finally {
    await transaction(db, async () => {
      for (const s of suspended) await exec(db, s.sql);
      // The search index (migration 084) rebuilt from the table in one pass instead of row by row.
      if (suspended.some((s) => s.name === "review_search_insert")) await exec(db, "INSERT INTO review_search (review_search) VALUES ('rebuild')");
    });
  }
  await recomputeAggregates(db, storeId);
}

/**
 * The bulk insert of one review, or of several in one multi-row INSERT (one round trip on PostgreSQL; at most a few
 * hundred rows a call: 17 parameters each, within both engines' parameter limits). A review whose ID or source key
 * (store, source, source_key) is already there is left out, as `reviewsData.insert` does. The aggregate, recommendation
 * and search triggers are the caller's to suspend.
 */
function insertReview(db: Db): BulkInsert {
  return async (reviews) => {
    const list = Array.isArray(reviews) ? reviews : [reviews as NewReview];
    if (list.length === 0) return;
    const rows = list.map(
      (r) => sql`(${r.reviewId}, ${r.storeId}, ${r.productId}, (SELECT group_id FROM products WHERE store_id = ${r.storeId} AND product_id = ${r.productId}),
        ${r.rating}, ${r.title}, ${r.body}, ${r.createdMs}, ${r.helpfulCount ?? 0}, 0, ${r.isRecommended == null ? null : r.isRecommended ? 1 : 0},
        ${r.languageCode ?? null}, ${r.status}, ${r.reviewerName}, 'unverified', ${r.source ?? null}, ${r.sourceKey ?? null})`,
    );
    await run(
      db,
      sql`
      INSERT INTO reviews (review_id, store_id, product_id, group_id, rating, title, body, created_ms, helpful_count, unhelpful_count,
        is_recommended, language_code, status, reviewer_name, verified_status, source, source_key)
      VALUES ${sql.join(rows)}
      ON CONFLICT DO NOTHING`,
    );
  };
}

/** Recompute `review_aggregates` of `storeId` (store, product and group scopes) from its published reviews, in one transaction. */
async function recomputeAggregates(db: Db, storeId: string): Promise<void> {
  const level = (condition: string) => `sum(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;
  const levels = sql.raw(`count(*), sum(rating), ${[1, 2, 3, 4, 5].map((l) => level(`rating = ${l}`)).join(", ")}, ${level("is_recommended = 1")}`);
  const cols = sql.raw("(store_id, scope_type, scope_id, review_count, rating_total, level1, level2, level3, level4, level5, recommended_count)");
  const where = sql`WHERE store_id = ${storeId} AND status = 'published'`;
  await transaction(db, async () => {
    await run(db, sql`DELETE FROM review_aggregates WHERE store_id = ${storeId}`);
    await run(db, sql`INSERT INTO review_aggregates ${cols} SELECT store_id, 'store', '', ${levels} FROM reviews ${where} GROUP BY store_id`);
    await run(db, sql`INSERT INTO review_aggregates ${cols} SELECT store_id, 'product', product_id, ${levels} FROM reviews ${where} GROUP BY store_id, product_id`);
    await run(db, sql`INSERT INTO review_aggregates ${cols} SELECT store_id, 'group', group_id, ${levels} FROM reviews ${where} AND group_id IS NOT NULL GROUP BY store_id, group_id`);
  });
}

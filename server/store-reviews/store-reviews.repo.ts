/**
 * Store review data (SQL, issue #38, docs/google-shopping.md "Seller ratings"): reviews of the shop itself, kept
 * apart from product reviews (migration 113), their moderation, and the published ones of the merchant review
 * feed in keyset batches. Every query names the store.
 */
import { all, run, sql, type Db } from "../db/database.ts";

export type StoreReviewStatus = "pending" | "published" | "rejected";

/** A new store review. */
export type StoreReviewInsert = {
  reviewId: string;
  storeId: string;
  rating: number;
  title: string;
  body: string;
  reviewerName: string;
  reviewerEmail: string;
  verifiedStatus: "verified-buyer" | "unverified";
  orderId: string | null;
  requestId: string | null;
  status: StoreReviewStatus;
  createdMs: number;
};

/** One stored store review. */
export type StoreReviewRow = {
  review_id: string;
  rating: number;
  title: string;
  body: string;
  reviewer_name: string;
  verified_status: "verified-buyer" | "unverified";
  order_id: string | null;
  status: StoreReviewStatus;
  created_ms: number;
  updated_ms: number;
};

const COLUMNS = sql.raw(`review_id, rating, title, body, reviewer_name, verified_status, order_id, status, created_ms, updated_ms`);

/** Create the store review data module over `db`. Every function returns a promise. */
export function storeReviewsRepo(db: Db) {
  return {
    /**
     * Store a review. One per review request (the partial unique index on request_id; exactly once across nodes:
     * ON CONFLICT DO NOTHING, `changes` says whether this call stored it). @returns whether it was stored.
     */
    insert: async (r: StoreReviewInsert): Promise<boolean> =>
      (
        await run(
          db,
          sql`INSERT INTO store_reviews (review_id, store_id, rating, title, body, reviewer_name, reviewer_email, verified_status, order_id, request_id, status, created_ms, updated_ms)
        VALUES (${r.reviewId}, ${r.storeId}, ${r.rating}, ${r.title}, ${r.body}, ${r.reviewerName}, ${r.reviewerEmail}, ${r.verifiedStatus}, ${r.orderId}, ${r.requestId}, ${r.status}, ${r.createdMs}, ${r.createdMs})
        ON CONFLICT DO NOTHING`,
        )
      ).changes === 1,
    /** Whether the review request `requestId` of the store has rated the shop (a store review of any status). */
    ratedByRequest: async (storeId: string, requestId: string): Promise<boolean> =>
      (await all<{ one: number }>(db, sql`SELECT 1 AS one FROM store_reviews WHERE store_id = ${storeId} AND request_id = ${requestId}`)).length > 0,
    /** Set the status of some reviews of the store (moderation). @returns how many changed. */
    setStatus: async (storeId: string, reviewIds: readonly string[], status: StoreReviewStatus, nowMs: number): Promise<number> =>
      reviewIds.length === 0
        ? 0
        : (
            await run(
              db,
              sql`UPDATE store_reviews SET status = ${status}, updated_ms = ${nowMs}
              WHERE store_id = ${storeId} AND review_id IN (${sql.join([...reviewIds])}) AND status <> ${status}`,
            )
          ).changes,
    /** The store's reviews of one status, newest first (at most `limit`). */
    list: (storeId: string, status: StoreReviewStatus, limit: number): Promise<StoreReviewRow[]> =>
      all<StoreReviewRow>(db, sql`SELECT ${COLUMNS} FROM store_reviews WHERE store_id = ${storeId} AND status = ${status} ORDER BY created_ms DESC, review_id DESC LIMIT ${limit}`),
    /**
     * At most `limit` published reviews after the keyset position `after` ([created_ms, review_id], oldest first):
     * one query per batch over the index `store_reviews_store_status_date`.
     */
    feedReviews: (storeId: string, after: readonly [number, string] | undefined, limit: number): Promise<StoreReviewRow[]> =>
      all<StoreReviewRow>(
        db,
        sql`SELECT ${COLUMNS} FROM store_reviews
        WHERE store_id = ${storeId} AND status = 'published'
          ${after ? sql`AND (created_ms > ${after[0]} OR (created_ms = ${after[0]} AND review_id > ${after[1]}))` : sql``}
        ORDER BY created_ms, review_id LIMIT ${limit}`,
      ),
  };
}
export type StoreReviewsRepo = ReturnType<typeof storeReviewsRepo>;

/** The shop's own address given at sign-up (stores.shop_url), or null. */
export async function shopUrlOf(db: Db, storeId: string): Promise<string | null> {
  return (await all<{ shop_url: string | null }>(db, sql`SELECT shop_url FROM stores WHERE store_id = ${storeId}`))[0]?.shop_url ?? null;
}

/**
 * Review moderation SQL for the merchant admin: the filtered queue (keyset on created_ms, review_id,
 * newest first, over index reviews_moderation), status changes single and bulk, public replies.
 * The store ID is in every WHERE, so another store's review IDs match nothing.
 */
import { all, forUpdate, one, run, sql, type Db } from "../db/database.ts";
import type { ReviewStatus } from "../reviews/reviews.repo.ts";

export type QueueMediaRow = { media_id: string; review_id: string; type: "image" | "video"; status: ReviewStatus; thumbnail_url: string; full_size_url: string; alt: string | null };
export type QueueFilter = { status: ReviewStatus; rating?: number; productId?: string; hasMedia?: boolean };
export type QueueRow = {
  review_id: string;
  product_id: string;
  product_name: string;
  rating: number;
  title: string;
  body: string;
  created_ms: number;
  status: ReviewStatus;
  reviewer_name: string;
  reviewer_email: string | null;
  reply_body: string | null;
  reply_created_ms: number | null;
  media_total: number;
  /** 1 when the reviewer received points or a coupon for the review (disclosed to shoppers). */
  is_incentivized: number;
  /** Why it was rejected (REJECTION_REASONS, moderation.service.ts) and the merchant's words; null unless rejected. */
  rejection_reason: RejectionReason | null;
  rejection_note: string | null;
  /** How the last decision was taken when no person took it ("Published automatically after 14 days"), else null. */
  moderation_note: string | null;
};

/** Why a merchant rejects a review (docs/admin.md "Moderation"). */
export type RejectionReason = "spam" | "off-topic" | "personal-data" | "other";
/** A status change: a rejection carries its reason; `note` records a decision no person took; `onlyPending` leaves moderated reviews alone. */
export type StatusChange = { status: "published"; note?: string; onlyPending?: boolean } | { status: "rejected"; reason: RejectionReason; reasonNote?: string | null };

const HAS_MEDIA = sql`EXISTS (SELECT 1 FROM review_media m WHERE m.review_id = r.review_id AND m.store_id = r.store_id AND m.status <> 'rejected')`;

/** Create the moderation data module over `db`. Every function returns a promise. */
export function moderationRepo(db: Db) {
  return {
    /**
     * One page (limit + 1 rows) of the store's reviews with `filter.status`, newest first, after the
     * cursor key `[created_ms, review_id]`. `media_total` counts media not rejected (pending included).
     */
    listQueue(storeId: string, filter: QueueFilter, limit: number, after?: [number, string]): Promise<QueueRow[]> {
      const none = sql``;
      return all<QueueRow>(
        db,
        sql`SELECT r.review_id, r.product_id, p.name AS product_name, r.rating, r.title, r.body, r.created_ms, r.status,
             r.reviewer_name, r.reviewer_email, r.reply_body, r.reply_created_ms, r.is_incentivized,
             r.rejection_reason, r.rejection_note, r.moderation_note,
             (SELECT count(*) FROM review_media m WHERE m.review_id = r.review_id AND m.store_id = r.store_id AND m.status <> 'rejected') AS media_total
           FROM reviews r JOIN products p ON p.store_id = r.store_id AND p.product_id = r.product_id
           WHERE r.store_id = ${storeId} AND r.status = ${filter.status}
             ${filter.rating !== undefined ? sql`AND r.rating = ${filter.rating}` : none}
             ${filter.productId !== undefined ? sql`AND r.product_id = ${filter.productId}` : none}
             ${filter.hasMedia !== undefined ? (filter.hasMedia ? sql`AND ${HAS_MEDIA}` : sql`AND NOT ${HAS_MEDIA}`) : none}
             ${after ? sql`AND (r.created_ms, r.review_id) < (${after[0]}, ${after[1]})` : none}
           ORDER BY r.created_ms DESC, r.review_id DESC LIMIT ${limit + 1}`,
      );
    },

    /**
     * Set the status of the store's reviews in `reviewIds`. Their media follow in the same statement
     * (trigger review_media_follow_review, migration 071): publishing publishes them, rejecting rejects
     * them (dated `nowMs` for the retention sweep), except items rejected on their own. A rejection keeps
     * its reason with the review; publishing clears it and keeps `change.note` (null when a person decided).
     * With `onlyPending`, only reviews still pending change (the held-review job: a review a person rejected
     * or published meanwhile is left alone, so a second run or a second node changes nothing).
     * @returns the number of the store's reviews changed (unknown IDs and other stores' are skipped).
     */
    async setStatus(storeId: string, reviewIds: string[], change: StatusChange, nowMs: number): Promise<number> {
      let changed = 0;
      for (const id of reviewIds) {
        changed += (
          await run(
            db,
            change.status === "rejected"
              ? sql`UPDATE reviews SET status = 'rejected', rejection_reason = ${change.reason}, rejection_note = ${change.reasonNote ?? null}, moderation_note = NULL, updated_ms = ${nowMs}
                 WHERE store_id = ${storeId} AND review_id = ${id}`
              : sql`UPDATE reviews SET status = 'published', rejection_reason = NULL, rejection_note = NULL, moderation_note = ${change.note ?? null}, updated_ms = ${nowMs}
                 WHERE store_id = ${storeId} AND review_id = ${id}${change.onlyPending ? sql` AND status = 'pending'` : sql``}`,
          )
        ).changes;
      }
      return changed;
    },

    /** Stores that publish held reviews, with their number of days. */
    async storesPublishingHeld(): Promise<{ store_id: string; days: number }[]> {
      const rows = await all<{ store_id: string; days: number }>(db, sql`SELECT store_id, publish_held_after_days AS days FROM stores WHERE publish_held_after_days IS NOT NULL ORDER BY store_id`);
      return rows.map((r) => ({ store_id: r.store_id, days: Number(r.days) }));
    },

    /**
     * IDs of up to `limit` of the store's pending reviews written at or before `cutoffMs`, oldest first (index
     * reviews_status). Inside a transaction on PostgreSQL the rows are claimed `FOR UPDATE SKIP LOCKED`: another
     * node's run takes the next ones instead of waiting (the `onlyPending` update keeps each publication exactly-once).
     */
    async heldSince(storeId: string, cutoffMs: number, limit: number): Promise<string[]> {
      const rows = await all<{ review_id: string }>(
        db,
        sql`SELECT review_id FROM reviews WHERE store_id = ${storeId} AND status = 'pending' AND created_ms <= ${cutoffMs}
        ORDER BY created_ms, review_id LIMIT ${limit}${forUpdate(db, { skipLocked: true })}`,
      );
      return rows.map((r) => r.review_id);
    },

    /**
     * Mark a review of the store as from a verified buyer on the merchant's confirmation (issue 19,
     * finding 6: an e-mail match alone never verifies). @returns false when the store has no such review.
     */
    async confirmVerifiedBuyer(storeId: string, reviewId: string, nowMs: number): Promise<boolean> {
      return (await run(db, sql`UPDATE reviews SET verified_status = 'verified-buyer', updated_ms = ${nowMs} WHERE store_id = ${storeId} AND review_id = ${reviewId}`)).changes === 1;
    },

    /** Set (or with `body` null, remove) the public reply of a review. @returns false when the store has no such review. */
    async setReply(storeId: string, reviewId: string, body: string | null, nowMs: number): Promise<boolean> {
      return (await run(db, sql`UPDATE reviews SET reply_body = ${body}, reply_created_ms = ${body === null ? null : nowMs} WHERE store_id = ${storeId} AND review_id = ${reviewId}`)).changes === 1;
    },

    /** Media (pending and published, not rejected) of the store's reviews in `reviewIds`, in upload order. */
    async mediaOf(storeId: string, reviewIds: string[]): Promise<QueueMediaRow[]> {
      if (reviewIds.length === 0) return [];
      return all<QueueMediaRow>(
        db,
        sql`SELECT media_id, review_id, type, status, thumbnail_url, full_size_url, alt FROM review_media
           WHERE store_id = ${storeId} AND review_id IN (${sql.join(reviewIds)}) AND status <> 'rejected' ORDER BY review_id, position`,
      );
    },

    /** Whether the store has a review with this ID (any status). */
    async hasReview(storeId: string, reviewId: string): Promise<boolean> {
      return (await one(db, sql`SELECT 1 AS one FROM reviews WHERE store_id = ${storeId} AND review_id = ${reviewId}`)) !== undefined;
    },
  };
}
export type ModerationRepo = ReturnType<typeof moderationRepo>;

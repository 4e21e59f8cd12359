/**
 * Review moderation SQL for the merchant admin: the filtered queue (keyset on created_ms, review_id,
 * newest first, over index reviews_moderation), status changes single and bulk, public replies.
 * The store ID is in every WHERE, so another store's review IDs match nothing.
 */
import type { Db } from "../db/database.ts";
import type { ReviewStatus } from "../reviews/reviews.repo.ts";

export type QueueMediaRow = { media_id: string; review_id: string; type: "image" | "video"; status: ReviewStatus; thumbnail_url: string; full_size_url: string; alt: string | null };
export type QueueFilter = { status: ReviewStatus; rating?: number; productId?: string; hasMedia?: boolean };
export type QueueRow = {
  review_id: string; product_id: string; product_name: string; rating: number; title: string; body: string;
  created_ms: number; status: ReviewStatus; reviewer_name: string; reviewer_email: string | null;
  reply_body: string | null; reply_created_ms: number | null; media_total: number;
  /** 1 when the reviewer received points or a coupon for the review (disclosed to shoppers). */
  is_incentivized: number;
  /** Why it was rejected (REJECTION_REASONS, moderation.service.ts) and the merchant's words; null unless rejected. */
  rejection_reason: RejectionReason | null; rejection_note: string | null;
  /** How the last decision was taken when no person took it ("Published automatically after 14 days"), else null. */
  moderation_note: string | null;
};

/** Why a merchant rejects a review (docs/admin.md "Moderation"). */
export type RejectionReason = "spam" | "off-topic" | "personal-data" | "other";
/** A status change: a rejection carries its reason; `note` records a decision no person took; `onlyPending` leaves moderated reviews alone. */
export type StatusChange =
  | { status: "published"; note?: string; onlyPending?: boolean }
  | { status: "rejected"; reason: RejectionReason; reasonNote?: string | null };

const HAS_MEDIA = "EXISTS (SELECT 1 FROM review_media m WHERE m.review_id = r.review_id AND m.store_id = r.store_id AND m.status <> 'rejected')";

/** Create the moderation data module over `db`. */
export function moderationRepo(db: Db) {
  return {
    /**
     * One page (limit + 1 rows) of the store's reviews with `filter.status`, newest first, after the
     * cursor key `[created_ms, review_id]`. `media_total` counts media not rejected (pending included).
     */
    listQueue(storeId: string, filter: QueueFilter, limit: number, after?: [number, string]): QueueRow[] {
      const where = ["r.store_id = ?", "r.status = ?"];
      const args: (string | number)[] = [storeId, filter.status];
      if (filter.rating !== undefined) { where.push("r.rating = ?"); args.push(filter.rating); }
      if (filter.productId !== undefined) { where.push("r.product_id = ?"); args.push(filter.productId); }
      if (filter.hasMedia !== undefined) where.push(filter.hasMedia ? HAS_MEDIA : `NOT ${HAS_MEDIA}`);
      if (after) { where.push("(r.created_ms, r.review_id) < (?, ?)"); args.push(after[0], after[1]); }
      return db
        .prepare(
          `SELECT r.review_id, r.product_id, p.name AS product_name, r.rating, r.title, r.body, r.created_ms, r.status,
             r.reviewer_name, r.reviewer_email, r.reply_body, r.reply_created_ms, r.is_incentivized,
             r.rejection_reason, r.rejection_note, r.moderation_note,
             (SELECT count(*) FROM review_media m WHERE m.review_id = r.review_id AND m.store_id = r.store_id AND m.status <> 'rejected') AS media_total
           FROM reviews r JOIN products p ON p.store_id = r.store_id AND p.product_id = r.product_id
           WHERE ${where.join(" AND ")}
           ORDER BY r.created_ms DESC, r.review_id DESC LIMIT ?`,
        )
        .all(...args, limit + 1) as QueueRow[];
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
    setStatus(storeId: string, reviewIds: string[], change: StatusChange, nowMs: number): number {
      const review = change.status === "rejected"
        ? db.prepare("UPDATE reviews SET status = 'rejected', rejection_reason = ?, rejection_note = ?, moderation_note = NULL, updated_ms = ? WHERE store_id = ? AND review_id = ?")
        : db.prepare(`UPDATE reviews SET status = 'published', rejection_reason = NULL, rejection_note = NULL, moderation_note = ?, updated_ms = ?
                      WHERE store_id = ? AND review_id = ?${change.onlyPending ? " AND status = 'pending'" : ""}`);
      const head = change.status === "rejected" ? [change.reason, change.reasonNote ?? null] : [change.note ?? null];
      let changed = 0;
      for (const id of reviewIds) changed += review.run(...head, nowMs, storeId, id).changes;
      return changed;
    },

    /** Stores that publish held reviews, with their number of days. */
    storesPublishingHeld(): { store_id: string; days: number }[] {
      return (db.prepare("SELECT store_id, publish_held_after_days AS days FROM stores WHERE publish_held_after_days IS NOT NULL ORDER BY store_id")
        .all() as { store_id: string; days: number }[]).map((r) => ({ store_id: r.store_id, days: Number(r.days) }));
    },

    /** IDs of up to `limit` of the store's pending reviews written at or before `cutoffMs`, oldest first (index reviews_status). */
    heldSince(storeId: string, cutoffMs: number, limit: number): string[] {
      return (db.prepare("SELECT review_id FROM reviews WHERE store_id = ? AND status = 'pending' AND created_ms <= ? ORDER BY created_ms, review_id LIMIT ?")
        .all(storeId, cutoffMs, limit) as { review_id: string }[]).map((r) => r.review_id);
    },

    /**
     * Mark a review of the store as from a verified buyer on the merchant's confirmation (issue 19,
     * finding 6: an e-mail match alone never verifies). @returns false when the store has no such review.
     */
    confirmVerifiedBuyer(storeId: string, reviewId: string, nowMs: number): boolean {
      return db
        .prepare("UPDATE reviews SET verified_status = 'verified-buyer', updated_ms = ? WHERE store_id = ? AND review_id = ?")
        .run(nowMs, storeId, reviewId).changes === 1;
    },

    /** Set (or with `body` null, remove) the public reply of a review. @returns false when the store has no such review. */
    setReply(storeId: string, reviewId: string, body: string | null, nowMs: number): boolean {
      return db
        .prepare("UPDATE reviews SET reply_body = ?, reply_created_ms = ? WHERE store_id = ? AND review_id = ?")
        .run(body, body === null ? null : nowMs, storeId, reviewId).changes === 1;
    },

    /** Media (pending and published, not rejected) of the store's reviews in `reviewIds`, in upload order. */
    mediaOf(storeId: string, reviewIds: string[]): QueueMediaRow[] {
      if (reviewIds.length === 0) return [];
      return db
        .prepare(
          `SELECT media_id, review_id, type, status, thumbnail_url, full_size_url, alt FROM review_media
           WHERE store_id = ? AND review_id IN (${reviewIds.map(() => "?").join(", ")}) AND status <> 'rejected' ORDER BY review_id, position`,
        )
        .all(storeId, ...reviewIds) as QueueMediaRow[];
    },

    /** Whether the store has a review with this ID (any status). */
    hasReview(storeId: string, reviewId: string): boolean {
      return db.prepare("SELECT 1 FROM reviews WHERE store_id = ? AND review_id = ?").get(storeId, reviewId) !== undefined;
    },
  };
}
export type ModerationRepo = ReturnType<typeof moderationRepo>;

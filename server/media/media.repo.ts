/**
 * review_media SQL. A media row copies its review's store, product and group (the guard trigger of
 * migration 001 rejects a row that disagrees); the review's media_count follows by trigger.
 *
 * Visibility (migration 071, docs/writes.md "Media visibility"): a row is inserted with its review's
 * status, and trigger `review_media_follow_review` moves it with every later status change of the
 * review, in the same transaction. Only a published item of a published review is public.
 */
import type { Db } from "../db/database.ts";
import type { StoredMedia } from "./media.service.ts";

export type MediaStatus = "pending" | "published" | "rejected";

/** What the media route needs to answer one file request (media-http.ts). */
export type MediaFileRow = {
  media_id: string; store_id: string; type: "image" | "video"; status: MediaStatus; review_status: MediaStatus;
  thumbnail_url: string; large_url: string; full_size_url: string; stream_url: string | null;
  /** The review's product (its content scope names the file's answers for an HTTP cache in front). */
  product_id: string;
};

/** Create the media data module over `db`. */
export function mediaRepo(db: Db) {
  // CAST: a bare `?` as the only value of a CASE is text to PostgreSQL, which rejected_ms (bigint) refuses.
  const insert = db.prepare(
    `INSERT INTO review_media (media_id, store_id, review_id, product_id, group_id, type, status, alt, thumbnail_url, large_url,
       full_size_url, stream_url, width, height, bytes, position, created_ms, rejected_ms)
     SELECT ?, r.store_id, r.review_id, r.product_id, r.group_id, ?, r.status, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
       CASE WHEN r.status = 'rejected' THEN CAST(? AS BIGINT) END
     FROM reviews r WHERE r.store_id = ? AND r.review_id = ?`,
  );
  return {
    /**
     * Attach a written media item to a review of the store, with the review's status (pending media of
     * a pending review is not public). @returns false when the store has no such review.
     * @param item URLs and dimensions from MediaStore.write; `position` orders a review's media; `createdMs` in ms.
     */
    insertMedia(storeId: string, reviewId: string, item: StoredMedia, options: { alt: string; position: number; createdMs: number }): boolean {
      return insert.run(
        item.mediaId, item.kind, options.alt, item.thumbnailUrl, item.largeUrl, item.fullSizeUrl, item.streamUrl,
        item.width, item.height, item.bytes, options.position, options.createdMs, options.createdMs, storeId, reviewId,
      ).changes === 1;
    },
    /**
     * Reject one item on its own (it stays rejected whatever its review does), or lift that: the item
     * then takes its review's status again. `nowMs` dates a rejection for the retention sweep.
     * @returns false when the store has no such media item.
     */
    setItemRejected(storeId: string, mediaId: string, rejected: boolean, nowMs: number): boolean {
      return db.prepare(
        `UPDATE review_media SET item_rejected = ?,
           status = CASE WHEN ? = 1 THEN 'rejected' ELSE (SELECT r.status FROM reviews r WHERE r.store_id = review_media.store_id AND r.review_id = review_media.review_id) END,
           rejected_ms = CASE WHEN ? = 1 THEN coalesce(rejected_ms, ?)
             WHEN (SELECT r.status FROM reviews r WHERE r.store_id = review_media.store_id AND r.review_id = review_media.review_id) = 'rejected' THEN coalesce(rejected_ms, ?) END
         WHERE store_id = ? AND media_id = ?`,
      ).run(rejected ? 1 : 0, rejected ? 1 : 0, rejected ? 1 : 0, nowMs, nowMs, storeId, mediaId).changes === 1;
    },
    /** The row behind a media file of the store (any status, with its review's status), or undefined. */
    fileRow(storeId: string, mediaId: string): MediaFileRow | undefined {
      return db.prepare<[string, string], MediaFileRow>(
        `SELECT m.media_id, m.store_id, m.type, m.status, r.status AS review_status, m.thumbnail_url, m.large_url, m.full_size_url, m.stream_url, r.product_id
         FROM review_media m JOIN reviews r ON r.store_id = m.store_id AND r.review_id = m.review_id
         WHERE m.store_id = ? AND m.media_id = ?`,
      ).get(storeId, mediaId);
    },
    /** Whether the store has a media row with this ID (any status): the retention sweep keeps its files. */
    exists(storeId: string, mediaId: string): boolean {
      return db.prepare("SELECT 1 FROM review_media WHERE store_id = ? AND media_id = ?").get(storeId, mediaId) !== undefined;
    },
    /** Up to `limit` rejected items (any store) rejected before `cutoffMs` (epoch ms), oldest first. */
    rejectedBefore(cutoffMs: number, limit: number): { store_id: string; media_id: string }[] {
      return db.prepare<[number, number], { store_id: string; media_id: string }>(
        "SELECT store_id, media_id FROM review_media WHERE status = 'rejected' AND rejected_ms < ? ORDER BY rejected_ms LIMIT ?",
      ).all(cutoffMs, limit);
    },
    /** Delete a rejected media row of the store (its files are the caller's). @returns false when it is gone or no longer rejected. */
    deleteRejected(storeId: string, mediaId: string): boolean {
      return db.prepare("DELETE FROM review_media WHERE store_id = ? AND media_id = ? AND status = 'rejected'").run(storeId, mediaId).changes === 1;
    },
    /** Published reviews of a product without media, most helpful first (demo media seeding). */
    publishedReviewsWithoutMedia(storeId: string, productId: string, minRating: number, limit: number): { review_id: string; rating: number; created_ms: number }[] {
      return db.prepare<[string, string, number, number], { review_id: string; rating: number; created_ms: number }>(
        `SELECT review_id, rating, created_ms FROM reviews WHERE store_id = ? AND product_id = ? AND status = 'published'
         AND media_count = 0 AND rating >= ? AND body <> '' ORDER BY helpful_count DESC, created_ms DESC, review_id LIMIT ?`,
      ).all(storeId, productId, minRating, limit);
    },
    /** Media count of a review (any status). */
    countOfReview(storeId: string, reviewId: string): number {
      return db.prepare("SELECT count(*) FROM review_media WHERE store_id = ? AND review_id = ?").pluck().get(storeId, reviewId) as number;
    },
  };
}
export type MediaRepo = ReturnType<typeof mediaRepo>;

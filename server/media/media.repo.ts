/**
 * review_media SQL. A media row copies its review's store, product and group (the guard trigger of
 * migration 001 rejects a row that disagrees); the review's media_count follows by trigger.
 *
 * Visibility (migration 071, docs/writes.md "Media visibility"): a row is inserted with its review's
 * status, and trigger `review_media_follow_review` moves it with every later status change of the
 * review, in the same transaction. Only a published item of a published review is public.
 */
import { all, one, run, sql, value, type Db } from "../db/database.ts";
import type { StoredMedia } from "./media.service.ts";

export type MediaStatus = "pending" | "published" | "rejected";

/** What the media route needs to answer one file request (media-http.ts). */
export type MediaFileRow = {
  media_id: string;
  store_id: string;
  type: "image" | "video";
  status: MediaStatus;
  review_status: MediaStatus;
  thumbnail_url: string;
  large_url: string;
  full_size_url: string;
  stream_url: string | null;
  /** The review's product (its content scope names the file's answers for an HTTP cache in front). */
  product_id: string;
};

/** Create the media data module over `db`. */
export function mediaRepo(db: Db) {
  return {
    /**
     * Attach a written media item to a review of the store, with the review's status (pending media of
     * a pending review is not public). @returns false when the store has no such review.
     * @param item URLs and dimensions from MediaStore.write; `position` orders a review's media; `createdMs` in ms.
     */
    async insertMedia(storeId: string, reviewId: string, item: StoredMedia, options: { alt: string; position: number; createdMs: number }): Promise<boolean> {
      // CAST: a bare parameter as the only value of a CASE is text to PostgreSQL, which rejected_ms (bigint) refuses.
      const { changes } = await run(
        db,
        sql`
        INSERT INTO review_media (media_id, store_id, review_id, product_id, group_id, type, status, alt, thumbnail_url, large_url,
          full_size_url, stream_url, width, height, bytes, position, created_ms, rejected_ms)
        SELECT ${item.mediaId}, r.store_id, r.review_id, r.product_id, r.group_id, ${item.kind}, r.status, ${options.alt}, ${item.thumbnailUrl},
          ${item.largeUrl}, ${item.fullSizeUrl}, ${item.streamUrl}, ${item.width}, ${item.height}, ${item.bytes}, ${options.position}, ${options.createdMs},
          CASE WHEN r.status = 'rejected' THEN CAST(${options.createdMs} AS BIGINT) END
        FROM reviews r WHERE r.store_id = ${storeId} AND r.review_id = ${reviewId}`,
      );
      return changes === 1;
    },
    /**
     * Reject one item on its own (it stays rejected whatever its review does), or lift that: the item
     * then takes its review's status again. `nowMs` dates a rejection for the retention sweep.
     * @returns false when the store has no such media item.
     */
    async setItemRejected(storeId: string, mediaId: string, rejected: boolean, nowMs: number): Promise<boolean> {
      const flag = rejected ? 1 : 0;
      const { changes } = await run(
        db,
        sql`
        UPDATE review_media SET item_rejected = ${flag},
          status = CASE WHEN ${flag} = 1 THEN 'rejected' ELSE (SELECT r.status FROM reviews r WHERE r.store_id = review_media.store_id AND r.review_id = review_media.review_id) END,
          rejected_ms = CASE WHEN ${flag} = 1 THEN coalesce(rejected_ms, ${nowMs})
            WHEN (SELECT r.status FROM reviews r WHERE r.store_id = review_media.store_id AND r.review_id = review_media.review_id) = 'rejected' THEN coalesce(rejected_ms, ${nowMs}) END
        WHERE store_id = ${storeId} AND media_id = ${mediaId}`,
      );
      return changes === 1;
    },
    /** The row behind a media file of the store (any status, with its review's status), or undefined. */
    fileRow(storeId: string, mediaId: string): Promise<MediaFileRow | undefined> {
      return one<MediaFileRow>(
        db,
        sql`
        SELECT m.media_id, m.store_id, m.type, m.status, r.status AS review_status, m.thumbnail_url, m.large_url, m.full_size_url, m.stream_url, r.product_id
        FROM review_media m JOIN reviews r ON r.store_id = m.store_id AND r.review_id = m.review_id
        WHERE m.store_id = ${storeId} AND m.media_id = ${mediaId}`,
      );
    },
    /** Whether the store has a media row with this ID (any status): the retention sweep keeps its files. */
    async exists(storeId: string, mediaId: string): Promise<boolean> {
      return (await one(db, sql`SELECT 1 AS found FROM review_media WHERE store_id = ${storeId} AND media_id = ${mediaId}`)) !== undefined;
    },
    /** Up to `limit` rejected items (any store) rejected before `cutoffMs` (epoch ms), oldest first. */
    rejectedBefore(cutoffMs: number, limit: number): Promise<{ store_id: string; media_id: string }[]> {
      return all<{ store_id: string; media_id: string }>(
        db,
        sql`
        SELECT store_id, media_id FROM review_media WHERE status = 'rejected' AND rejected_ms < ${cutoffMs} ORDER BY rejected_ms LIMIT ${limit}`,
      );
    },
    /** Delete a rejected media row of the store (its files are the caller's). @returns false when it is gone or no longer rejected. */
    async deleteRejected(storeId: string, mediaId: string): Promise<boolean> {
      return (await run(db, sql`DELETE FROM review_media WHERE store_id = ${storeId} AND media_id = ${mediaId} AND status = 'rejected'`)).changes === 1;
    },
    /** Published reviews of a product without media, most helpful first (demo media seeding). */
    publishedReviewsWithoutMedia(storeId: string, productId: string, minRating: number, limit: number): Promise<{ review_id: string; rating: number; created_ms: number }[]> {
      return all<{ review_id: string; rating: number; created_ms: number }>(
        db,
        sql`
        SELECT review_id, rating, created_ms FROM reviews WHERE store_id = ${storeId} AND product_id = ${productId} AND status = 'published'
          AND media_count = 0 AND rating >= ${minRating} AND body <> '' ORDER BY helpful_count DESC, created_ms DESC, review_id LIMIT ${limit}`,
      );
    },
    /** Media count of a review (any status). */
    async countOfReview(storeId: string, reviewId: string): Promise<number> {
      return (await value<number>(db, sql`SELECT count(*) AS n FROM review_media WHERE store_id = ${storeId} AND review_id = ${reviewId}`)) ?? 0;
    },
  };
}
export type MediaRepo = ReturnType<typeof mediaRepo>;

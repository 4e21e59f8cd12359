/**
 * review_media writes (SQL). A media row copies its review's store, product and group (the guard
 * trigger of migration 001 rejects a row that disagrees); the review's media_count follows by trigger.
 */
import type { Db } from "../db/database.ts";
import type { StoredMedia } from "./media.service.ts";

/** Create the media data module over `db`. */
export function mediaRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO review_media (media_id, store_id, review_id, product_id, group_id, type, status, alt, thumbnail_url, large_url,
       full_size_url, stream_url, width, height, bytes, position, created_ms)
     SELECT ?, r.store_id, r.review_id, r.product_id, r.group_id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
     FROM reviews r WHERE r.store_id = ? AND r.review_id = ?`,
  );
  return {
    /**
     * Attach a written media item to a review of the store. @returns false when the store has no such review.
     * @param item URLs and dimensions from MediaStore.write; `position` orders a review's media; `createdMs` in ms.
     */
    insertMedia(storeId: string, reviewId: string, item: StoredMedia, options: { alt: string; position: number; createdMs: number; status?: "pending" | "published" | "rejected" }): boolean {
      return insert.run(
        item.mediaId, item.kind, options.status ?? "published", options.alt, item.thumbnailUrl, item.largeUrl, item.fullSizeUrl, item.streamUrl,
        item.width, item.height, item.bytes, options.position, options.createdMs, storeId, reviewId,
      ).changes === 1;
    },
    /** @returns false when the store has no such media item. */
    setMediaStatus(storeId: string, mediaId: string, status: "pending" | "published" | "rejected"): boolean {
      return db.prepare("UPDATE review_media SET status = ? WHERE store_id = ? AND media_id = ?").run(status, storeId, mediaId).changes === 1;
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

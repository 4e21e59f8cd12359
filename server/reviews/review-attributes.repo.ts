/**
 * The rated product attributes of a review (SQL): `reviews.attributes_with_rating_json`, Okendo's
 * `attributesWithRating` shape, written when a shopper's submission carries answers to the store's scales
 * (submissions.service.ts, issue #23 item 2). Read back by reviews.repo.ts (listings, `attributeRatings`).
 */
import type { Db } from "../db/database.ts";

/** One rated attribute as a review carries it: `value` 1..5 (`range`) or -1..1 (`centered-range`). */
export type RatedAttribute = { title: string; type: "range" | "centered-range"; value: number; minLabel: string; midLabel: string; maxLabel: string };

/** Create the review attributes data module over `db`. */
export function reviewAttributesRepo(db: Db) {
  const set = db.prepare<[string | null, string, string]>("UPDATE reviews SET attributes_with_rating_json = ? WHERE store_id = ? AND review_id = ?");
  return {
    /** Set (or with an empty list, clear) the rated attributes of review `reviewId` of `storeId`. */
    setAttributesWithRating(storeId: string, reviewId: string, attributes: RatedAttribute[]): void {
      set.run(attributes.length ? JSON.stringify(attributes) : null, storeId, reviewId);
    },
  };
}

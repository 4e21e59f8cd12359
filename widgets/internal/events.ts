/**
 * Every event a Chorus element dispatches, with its detail type: one typed map (add new events here).
 * All are `CustomEvent`s that bubble and cross shadow roots (`composed: true`).
 */
export interface ChorusEventMap {
  /** `<chorus-reviews>` loaded a page. */
  "chorus-reviews-loaded": { count: number; hasMore: boolean; orderBy: string };
  /** `<chorus-reviews>` sort order changed by the shopper. */
  "chorus-reviews-sort": { orderBy: string };
  /** `<chorus-star-rating>` loaded the aggregate. */
  "chorus-rating-loaded": { reviewCount: number; averageRating: number };
}

declare global {
  interface HTMLElementEventMap {
    "chorus-reviews-loaded": CustomEvent<ChorusEventMap["chorus-reviews-loaded"]>;
    "chorus-reviews-sort": CustomEvent<ChorusEventMap["chorus-reviews-sort"]>;
    "chorus-rating-loaded": CustomEvent<ChorusEventMap["chorus-rating-loaded"]>;
  }
}

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
  /** `<chorus-reviews-keywords>`: a keyword chip was chosen (`keyword: null` clears the filter); `<chorus-reviews>` reloads with `&keyword=`. */
  "chorus-keyword-selected": { keyword: string | null; storeId: string; productId: string };
}

declare global {
  interface HTMLElementEventMap {
    "chorus-reviews-loaded": CustomEvent<ChorusEventMap["chorus-reviews-loaded"]>;
    "chorus-reviews-sort": CustomEvent<ChorusEventMap["chorus-reviews-sort"]>;
    "chorus-rating-loaded": CustomEvent<ChorusEventMap["chorus-rating-loaded"]>;
    "chorus-keyword-selected": CustomEvent<ChorusEventMap["chorus-keyword-selected"]>;
  }
}

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
  /**
   * A keyword topic was chosen (or cleared with `keyword: null`) by `<chorus-reviews-keywords>`;
   * dispatched on `document`. `<chorus-reviews>` of the same store and scope filters by it. `label`: the keyword as
   * shown on the page (a sizing keyword Chorus generates, in the page's language), when it differs from `keyword`.
   */
  "chorus-keyword-selected": { keyword: string | null; label?: string; storeId: string; productId?: string; groupId?: string };
  /** `<chorus-loyalty>`: the shopper joined the program (sign-up points awarded, initial VIP tier set). */
  "chorus-loyalty-enrolled": { loyaltyCustomerId: string; balance: number; vipTierName?: string };
  /** `<chorus-loyalty>`: the shopper redeemed points for a reward; `code` is the coupon code. */
  "chorus-loyalty-redeemed": { transactionId: string; redemptionRuleId: string; code: string; pointsCost: number };
  /** `<chorus-review-form>`: the server accepted a review (`status` pending until moderated, or published; `storeReview` true for a review of the shop, `store-review`). */
  "chorus-review-submitted": { reviewId: string; status: "pending" | "published" | "rejected"; storeReview?: boolean };
  /** `<chorus-questions>`: the server accepted a question (pending until moderated). */
  "chorus-question-submitted": { questionId: string; status: "pending" | "published" | "rejected" };
  /** `<chorus-reviews>`: a helpful / not helpful vote was counted; counts after the vote. */
  "chorus-vote": { reviewId: string; vote: "helpful" | "unhelpful"; helpfulCount: number; unhelpfulCount: number };
  /** `<chorus-survey>`: the server stored the shopper's answers; `reward` is the coupon code when the channel survey has one. */
  "chorus-survey-submitted": { surveyResponseId: string; channelSurveyId: string; reward?: string };
  /** `<chorus-review-media>`: the lightbox shows an item. */
  "chorus-media-open": { mediaId: string; index: number };
}

declare global {
  interface HTMLElementEventMap {
    "chorus-reviews-loaded": CustomEvent<ChorusEventMap["chorus-reviews-loaded"]>;
    "chorus-reviews-sort": CustomEvent<ChorusEventMap["chorus-reviews-sort"]>;
    "chorus-rating-loaded": CustomEvent<ChorusEventMap["chorus-rating-loaded"]>;
    "chorus-keyword-selected": CustomEvent<ChorusEventMap["chorus-keyword-selected"]>;
    "chorus-loyalty-enrolled": CustomEvent<ChorusEventMap["chorus-loyalty-enrolled"]>;
    "chorus-loyalty-redeemed": CustomEvent<ChorusEventMap["chorus-loyalty-redeemed"]>;
    "chorus-review-submitted": CustomEvent<ChorusEventMap["chorus-review-submitted"]>;
    "chorus-question-submitted": CustomEvent<ChorusEventMap["chorus-question-submitted"]>;
    "chorus-vote": CustomEvent<ChorusEventMap["chorus-vote"]>;
    "chorus-media-open": CustomEvent<ChorusEventMap["chorus-media-open"]>;
    "chorus-survey-submitted": CustomEvent<ChorusEventMap["chorus-survey-submitted"]>;
  }
  interface DocumentEventMap {
    "chorus-keyword-selected": CustomEvent<ChorusEventMap["chorus-keyword-selected"]>;
  }
}

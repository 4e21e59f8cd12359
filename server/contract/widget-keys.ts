/**
 * The widgets a merchant can show or hide (issue #21 item 4) and the element of each. Plain data with no
 * imports, for the admin's browser code and the snippet builder (server/contract/widget-settings.ts holds
 * the schemas).
 */

/** The widget switches; `reviews` covers the review form too. */
export const WIDGET_KEYS = ["reviews", "starRating", "media", "questions", "summary", "keywords", "loyalty"] as const;
export type WidgetKey = (typeof WIDGET_KEYS)[number];

/** The element of each widget switch. */
export const WIDGET_TAGS_BY_KEY: Record<WidgetKey, string> = {
  starRating: "chorus-star-rating",
  summary: "chorus-reviews-summary",
  keywords: "chorus-reviews-keywords",
  media: "chorus-review-media",
  reviews: "chorus-reviews",
  questions: "chorus-questions",
  loyalty: "chorus-loyalty",
};

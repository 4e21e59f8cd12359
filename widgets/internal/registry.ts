/**
 * Which module defines which custom element. The loader (widgets/index.ts) imports `<tag>.js` from
 * the script's own folder when an element of that tag appears; the build makes one entry per tag.
 * Add a line here for every new element.
 */
export const WIDGET_MODULES: Record<string, string> = {
  "chorus-reviews": "reviews/chorus-reviews.ts",
  "chorus-star-rating": "star-rating/chorus-star-rating.ts",
  "chorus-reviews-summary": "reviews-summary/chorus-reviews-summary.ts",
  "chorus-reviews-keywords": "reviews-keywords/chorus-reviews-keywords.ts",
  "chorus-loyalty": "loyalty/chorus-loyalty.ts",
  "chorus-review-form": "review-form/chorus-review-form.ts",
  "chorus-review-media": "review-media/chorus-review-media.ts",
  "chorus-questions": "questions/chorus-questions.ts",
};

/** English default texts of `<chorus-star-rating>` (one group of server/contract/widget-strings.ts; pure data). */
export const STAR_RATING_TEXTS = {
  "starRating.label": "Rated {average} out of 5, {count}",
  "starRating.count.one": "{count} review",
  "starRating.count.other": "{count} reviews",
  "starRating.empty": "No reviews yet",
} as const;

/** English default texts of `<chorus-reviews-keywords>` (one group of server/contract/widget-strings.ts; pure data). */
export const KEYWORDS_TEXTS = {
  "keywords.title": "What reviews mention",
  "keywords.empty": "No review topics yet.",
  "keywords.showAll": "Show all {count} topics",
  "keywords.showFewer": "Show fewer topics",
  "keywords.reviews": "reviews",
} as const;

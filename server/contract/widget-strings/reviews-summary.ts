/** English default texts of `<chorus-reviews-summary>` (one group of server/contract/widget-strings.ts; pure data). */
export const SUMMARY_TEXTS = {
  "summary.empty": "No AI summary of the reviews yet.",
  "summary.label": "AI-generated",
  "summary.title": "What shoppers say",
  "summary.readMore": "Read more",
  "summary.showLess": "Show less",
  "summary.basedOn.one": "Based on {count} review",
  "summary.basedOn.other": "Based on {count} reviews",
  "summary.generatedOn": "generated on {date}",
} as const;

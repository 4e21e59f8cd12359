/**
 * The CSS that reserves each widget's loading-state box before its code has loaded (no layout shift; issue 8,
 * issue #23 item 5). Plain data with no imports: the integration snippet (app/lib/widget-snippet.ts) carries
 * these rules in a `<style>`, and the loader (widgets/index.ts) adds the same rules to the page the moment it
 * runs, for pages that paste only the script tag and the elements. Sizes at 16px text, measured in
 * e2e/widget-setup.spec.ts (reserved box = loading-state box). Elements with a reservation of their own
 * (a `:host` min-height while loading) get it only until defined; `chorus-loyalty`, which has none, keeps it.
 * A server-rendered element (`server-rendered`, docs/snippets.md) already has its size and gets none.
 */
export const WIDGET_RESERVATIONS = {
  starRating: "chorus-star-rating:not(:defined){display:inline-block;vertical-align:top;min-height:1.5em;min-width:10em}",
  summary: "chorus-reviews-summary:not(:defined){display:block;margin:0 0 1rem;min-height:var(--chorus-reviews-summary-min-height,14rem)}",
  keywords: "chorus-reviews-keywords:not(:defined){display:block;margin:0 0 1rem;min-height:var(--chorus-reviews-keywords-min-height,11rem)}",
  media: "chorus-review-media:not(:defined){display:block;min-height:var(--chorus-review-media-min-height,calc(96px + 3.5rem))}",
  reviews: "chorus-reviews:not(:defined){display:block;min-height:calc(var(--chorus-reviews-min-height,28rem) + 3.75rem)}",
  questions: "chorus-questions:not(:defined){display:block;min-height:11.25rem}",
  carousel: "chorus-reviews-carousel:not(:defined){display:block;min-height:var(--chorus-reviews-carousel-min-height,18rem)}",
  loyalty: "chorus-loyalty{display:block;min-height:calc(15.75rem + 2px)}",
} as const;

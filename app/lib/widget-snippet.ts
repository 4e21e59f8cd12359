/**
 * The HTML a merchant pastes into their theme (issue #21 item 4): the script tag, a `<style>` that
 * reserves each widget's space before its code has loaded, and the elements with the store's ID. Shared
 * by the admin's integration page (the snippet to copy) and the widgets page's live preview (the same
 * markup, so what the preview shows is what the snippet gives).
 *
 * Reservations (no layout shift): each element gets, before its module defines it, the box it has in its
 * loading state (server/contract/widget-reservations.ts; the loader adds the same rules when it runs). Elements with a reservation of their own (`:host` min-height, docs/widgets.md) get the
 * same value only until defined; `chorus-loyalty`, which has none, keeps its own (`min-height` of its
 * loading state, measured in e2e/widget-setup.spec.ts at 16px text).
 */
import { WIDGET_TAGS_BY_KEY, type WidgetKey } from "../../server/contract/widget-keys.ts";
import { WIDGET_RESERVATIONS } from "../../server/contract/widget-reservations.ts";

/** Per widget: the CSS rule that reserves its loading-state box, and where a merchant puts it. */
export const WIDGET_PLACEMENT: Record<WidgetKey, { css: string; comment: string; scope: "product" | "store" }> = {
  starRating: {
    css: WIDGET_RESERVATIONS.starRating,
    comment: "Star rating: under the product title",
    scope: "product",
  },
  summary: {
    css: WIDGET_RESERVATIONS.summary,
    comment: "AI summary of the reviews",
    scope: "product",
  },
  keywords: {
    css: WIDGET_RESERVATIONS.keywords,
    comment: "Review topics (filter the reviews below)",
    scope: "product",
  },
  media: {
    css: WIDGET_RESERVATIONS.media,
    comment: "Customer photos and videos",
    scope: "product",
  },
  reviews: {
    css: WIDGET_RESERVATIONS.reviews,
    comment: "Reviews of the product, with the review form",
    scope: "product",
  },
  questions: {
    css: WIDGET_RESERVATIONS.questions,
    comment: "Questions and answers",
    scope: "product",
  },
  loyalty: {
    css: WIDGET_RESERVATIONS.loyalty,
    comment: "Loyalty program (on your rewards or account page)",
    scope: "store",
  },
};

/** Escape `"`, `&`, `<` and `>` for an HTML attribute value or text. */
const attr = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Order of the elements in the snippet: the product page from top to bottom, then the loyalty page. */
const ORDER: readonly WidgetKey[] = ["starRating", "summary", "keywords", "media", "reviews", "questions", "loyalty"];

/** The `<style>` body reserving the space of the `shown` widgets, one rule a line. */
export function reservationCss(shown: Record<WidgetKey, boolean>): string {
  return ORDER.filter((k) => shown[k])
    .map((k) => WIDGET_PLACEMENT[k].css)
    .join("\n");
}

/**
 * The snippet for a store: `origin` serves chorus.js (PUBLIC_URL), `productKey` is an example product
 * (`shopify-1078`), `shown` the widgets the store shows (hidden ones are left out). Plain text, HTML-escaped values.
 */
export function widgetSnippet(options: { origin: string; storeId: string; productKey: string; shown: Record<WidgetKey, boolean> }): string {
  const { origin, storeId, productKey, shown } = options;
  const keys = ORDER.filter((k) => shown[k]);
  const lines = [
    `<!-- Chorus widgets: the script once per page -->`,
    `<script async src="${attr(origin)}/widgets/chorus.js"></script>`,
    `<!-- Reserves each widget's space before it has loaded, so the page does not shift -->`,
    `<style>`,
    reservationCss(shown),
    `</style>`,
  ];
  for (const k of keys) {
    const p = WIDGET_PLACEMENT[k];
    const tag = WIDGET_TAGS_BY_KEY[k];
    const product = p.scope === "product" ? ` product-id="${attr(productKey)}"` : "";
    lines.push("", `<!-- ${p.comment} -->`, `<${tag} store-id="${attr(storeId)}"${product}></${tag}>`);
  }
  return lines.join("\n");
}

/**
 * The snippet for a page about the whole store (home page, collection page): the script, the reservation of
 * `<chorus-reviews-carousel>` (server/contract/widget-reservations.ts) and the element, the store's newest reviews
 * of 4 and 5 stars. Shown on the integration page while the store shows reviews (the carousel follows that switch).
 */
export function carouselSnippet(options: { origin: string; storeId: string }): string {
  return [
    `<!-- Chorus widgets: the script once per page -->`,
    `<script async src="${attr(options.origin)}/widgets/chorus.js"></script>`,
    `<style>`,
    WIDGET_RESERVATIONS.carousel,
    `</style>`,
    "",
    `<!-- Recent reviews of 4 and 5 stars from the whole store, as a carousel -->`,
    `<chorus-reviews-carousel store-id="${attr(options.storeId)}" min-rating="4"></chorus-reviews-carousel>`,
  ].join("\n");
}

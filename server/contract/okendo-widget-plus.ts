/**
 * The answer Okendo's Hydrogen components read (`@okendo/shopify-hydrogen`, `getOkendoProviderData`):
 * `GET /v1/stores/{storeId}/widget_plus_settings` (docs/okendo.md "Hydrogen"). Okendo's four fields, built from
 * the store's widget settings; the provider prints them into the page's head, and Chorus's
 * `/reviews-widget-plus/js/okendo-reviews.js` reads `reviewsHeaderConfig` back from there.
 */
import { z } from "zod";

/** What Chorus's `okendo-reviews.js` needs to turn Okendo's mounts into Chorus elements. */
export const reviewsHeaderConfigSchema = z.object({
  subscriberId: z.string().meta({ description: "The store's subscriber ID (the elements' `store-id`)." }),
  apiBase: z.string().meta({ description: "Chorus's public origin (the elements' `api-base`), e.g. `https://reviews.example.com`." }),
  locale: z.string().meta({ description: "The language of the merchant's texts in `texts` (`en` when none was asked)." }),
  colors: z.object({ accent: z.string().nullable(), star: z.string().nullable() }),
});
export type ReviewsHeaderConfig = z.infer<typeof reviewsHeaderConfigSchema>;

export const widgetPlusSettingsSchema = z.object({
  reviewsHeaderConfig: reviewsHeaderConfigSchema.meta({ description: 'Printed by the provider as JSON in `<script id="oke-reviews-settings">`; read by Chorus\'s `okendo-reviews.js`.' }),
  cssVariables: z.string().meta({ description: 'A `<style id="oke-css-vars">` element setting the store\'s colours as `--chorus-accent` and `--chorus-star` on `:root` (none set: an empty rule).' }),
  customCss: z.string().meta({ description: "Always empty: Chorus has no custom CSS setting (a page styles the widgets with `--chorus-*` properties and `::part()`)." }),
  starSymbols: z.string().meta({ description: "A hidden SVG with the star symbols `#oke-star-filled` and `#oke-star-empty` that Okendo's server-rendered snippets use." }),
});
export type WidgetPlusSettings = z.infer<typeof widgetPlusSettingsSchema>;

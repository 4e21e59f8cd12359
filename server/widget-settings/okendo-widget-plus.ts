/**
 * Okendo's "widget plus" settings from a store's widget settings (issue #37 item 6, docs/okendo.md "Hydrogen"):
 * the answer `@okendo/shopify-hydrogen`'s provider reads before it prints its head tags and injects the loader.
 */
import type { WidgetPlusSettings } from "../contract/okendo-widget-plus.ts";
import type { StorefrontWidgetSettings } from "../contract/widget-settings.ts";

/** The star outline of the widgets (widgets/internal/stars.ts), on a 24-unit cell. */
const STAR = "M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.5L12 17.3 6.1 20.5l1.3-6.5L2.5 9.4l6.6-.8z";

/**
 * Okendo's four fields for a store: `reviewsHeaderConfig` names the store and Chorus's origin (`apiBase`, no
 * trailing slash) for `okendo-reviews.js`; `cssVariables` sets the colours (hex colours, validated on the way in,
 * so safe inside a style element); `customCss` is empty; `starSymbols` is Okendo's star sprite.
 */
export function widgetPlusSettings(storeId: string, settings: StorefrontWidgetSettings, apiBase: string): WidgetPlusSettings {
  const { accent, star } = settings.colors;
  const vars = [accent ? `--chorus-accent:${accent}` : "", star ? `--chorus-star:${star}` : ""].filter(Boolean).join(";");
  return {
    reviewsHeaderConfig: { subscriberId: storeId, apiBase: apiBase.replace(/\/+$/, ""), locale: settings.locale, colors: { accent, star } },
    cssVariables: `<style id="oke-css-vars">:root{${vars}}</style>`,
    customCss: "",
    starSymbols:
      `<svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false" style="position:absolute;width:0;height:0;overflow:hidden">` +
      `<symbol id="oke-star-filled" viewBox="0 0 24 24"><path fill="${star ?? "currentColor"}" d="${STAR}"/></symbol>` +
      `<symbol id="oke-star-empty" viewBox="0 0 24 24"><path fill="currentColor" opacity=".25" d="${STAR}"/></symbol></svg>`,
  };
}

/**
 * Chorus's stand-in for Okendo's loader, served at `/reviews-widget-plus/js/okendo-reviews.js` (issue #37 item 6,
 * docs/okendo.md "Hydrogen"), so Okendo's Hydrogen components (`@okendo/shopify-hydrogen`) work unchanged with
 * `cdnDomain` set to the Chorus host: their provider injects this script, their components wait for
 * `window.okeWidgetApi.initWidget(el)` (or the `oke-script-loaded` event) and hand it their mount.
 *
 * A classic script of its own (no imports; built beside `chorus.js`, minified, precompressed, cached 5 minutes). It
 * loads `/widgets/chorus.js` from its own origin once, and turns each Okendo mount into the Chorus element it stands
 * for, with `store-id` and `api-base` from the provider's `<script id="oke-reviews-settings">` (the `reviewsHeaderConfig`
 * of `GET /v1/stores/{storeId}/widget_plus_settings`):
 * - `data-oke-star-rating` → `<chorus-star-rating>`;
 * - `data-oke-widget` → `<chorus-reviews>` (store-wide without `data-oke-reviews-product-id`);
 * - `data-oke-carousel` → `<chorus-reviews-carousel>`;
 * each with `product-id` from `data-oke-reviews-product-id` and `group-id` from `data-oke-reviews-group-id`. A mount
 * that already holds that element (a server-rendered Chorus snippet from a product metafield) keeps it. Mounts on
 * the page when it runs are upgraded at once; then `oke-script-loaded` is dispatched on `document`.
 */

// A module for TypeScript (its `declare global`); the build's output has no import or export.
export {};

declare global {
  interface Window {
    okeWidgetApi?: { initWidget(el: Element): void };
  }
}

/** Okendo's mount attribute → the Chorus element it becomes. */
const MOUNTS: [string, string][] = [
  ["data-oke-star-rating", "chorus-star-rating"],
  ["data-oke-widget", "chorus-reviews"],
  ["data-oke-carousel", "chorus-reviews-carousel"],
];
/** Okendo's scope attributes → the element's. */
const SCOPES: [string, string][] = [
  ["data-oke-reviews-product-id", "product-id"],
  ["data-oke-reviews-group-id", "group-id"],
];

const own = new URL((document.currentScript as HTMLScriptElement | null)?.src ?? location.href, location.href);
let loading = false;

/** The provider's `reviewsHeaderConfig` (`subscriberId`, `apiBase`); {} when it is missing or not JSON. */
function headerConfig(): { subscriberId?: string; apiBase?: string } {
  try {
    return JSON.parse(document.getElementById("oke-reviews-settings")?.textContent ?? "{}") as { subscriberId?: string; apiBase?: string };
  } catch {
    return {};
  }
}

/** Load `chorus.js` from this script's origin, once (not when the page already has it). */
function loadChorus(): void {
  if (loading || document.querySelector('script[src*="/widgets/chorus.js"]')) return;
  loading = true;
  const script = document.createElement("script");
  script.async = true;
  script.src = new URL("/widgets/chorus.js", own).href;
  document.head.appendChild(script);
}

/** Turn one Okendo mount into its Chorus element (nothing for an element that is no mount). */
function initWidget(el: Element): void {
  const tag = MOUNTS.find(([attribute]) => el.hasAttribute(attribute))?.[1];
  if (!tag) return;
  const { subscriberId, apiBase } = headerConfig();
  const wanted: Record<string, string> = { "store-id": subscriberId ?? "" };
  for (const [from, to] of SCOPES) {
    const value = el.getAttribute(from);
    if (value) wanted[to] = value;
  }
  if (apiBase) wanted["api-base"] = apiBase;
  const present = el.querySelector(`:scope > ${tag}`);
  // The same scope: an empty attribute (an element reflects its unset `group-id` as "") counts as absent.
  const same = present && ["product-id", "group-id"].every((name) => (present.getAttribute(name) || null) === (wanted[name] ?? null));
  if (!same) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(wanted)) element.setAttribute(name, value);
    el.replaceChildren(element);
  } else if (!present.getAttribute("store-id")) {
    present.setAttribute("store-id", wanted["store-id"]!);
  }
  loadChorus();
}

window.okeWidgetApi = { ...window.okeWidgetApi, initWidget };
for (const el of document.querySelectorAll(MOUNTS.map(([attribute]) => `[${attribute}]`).join(","))) initWidget(el);
document.dispatchEvent(new CustomEvent("oke-script-loaded"));

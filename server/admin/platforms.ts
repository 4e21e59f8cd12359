/**
 * The shop platforms a store can be signed up for (issue #21 item 2) and how forms name them. Pure and
 * dependency-free, so the admin's pages use it in the browser too.
 */

/** Platform names: the product path prefix of a store's products (e.g. `shopify-1078`). */
export const PLATFORMS = ["shopify", "bigcommerce", "woocommerce", "custom"] as const;
export type Platform = (typeof PLATFORMS)[number];
/** How the forms name each platform. */
export const PLATFORM_LABELS: Record<Platform, string> = { shopify: "Shopify", bigcommerce: "BigCommerce", woocommerce: "WooCommerce", custom: "Custom (another platform)" };

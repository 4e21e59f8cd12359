// Test app (e2e/okendo-hydrogen.spec.ts): a Hydrogen product page made of Okendo's published Hydrogen components
// (`@okendo/shopify-hydrogen` 2.6.2, a devDependency, unchanged), as Okendo's README mounts them: the provider in the
// layout, the star rating under the title (with the product's star-rating metafield), the reviews widget and a
// store-wide carousel below. The same module is rendered on the server (`render`, React's renderToString) and
// hydrated in Chromium (e2e/okendo/hydrogen-entry.mjs); the spec bundles both with esbuild.
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { getOkendoProviderData, OkendoProvider, OkendoReviews, OkendoReviewsCarousel, OkendoStarRating } from "@okendo/shopify-hydrogen";

/** The Storefront API stand-in of the provider's shop query: the shop has no pre-render style tags metafield. */
const context = { storefront: { query: async () => ({ shop: { widgetPreRenderStyleTags: null } }) } };

/** `getOkendoProviderData` as a Hydrogen loader calls it, with the merchant's `apiDomain`. */
export const providerData = (subscriberId, apiDomain) => getOkendoProviderData({ context, subscriberId, apiDomain });

/** The page: `productId` a Shopify product GID, `starRatingSnippet` the product's star-rating metafield value. */
export function App({ okendoProviderData, cdnDomain, productId, productTitle, starRatingSnippet }) {
  return h(
    OkendoProvider,
    { okendoProviderData, cdnDomain },
    h(
      "main",
      null,
      h("h1", null, productTitle),
      h(OkendoStarRating, { productId, okendoStarRatingSnippet: starRatingSnippet ? { value: starRatingSnippet } : undefined }),
      h("p", null, "A product description."),
      h("h2", null, "Reviews"),
      h(OkendoReviews, { productId }),
      h("h2", null, "What shoppers say about the shop"),
      h(OkendoReviewsCarousel, {}),
    ),
  );
}

/** Server rendering (Node): the page's HTML for `props`. */
export const render = (props) => renderToString(h(App, props));

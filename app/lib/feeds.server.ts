/**
 * Operation declarations of the Google Shopping feeds (issue #38, docs/google-shopping.md):
 * `GET /v1/stores/{storeId}/feeds/google-product-reviews.xml?token=…`, the store's Google Product Reviews feed
 * (schema 2.4) for Merchant Center's scheduled fetch. Streamed (never buffered, never cached), gzip-compressed when
 * the client accepts it. `GET /v1/stores/{storeId}/feeds/google-merchant-reviews.xml?token=…`, the merchant review
 * feed of the store's published store reviews (Google seller ratings, schema 5.0), with the same token.
 */
import { z } from "zod";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { storeIdParam } from "../../server/contract/params.ts";
import { DEMO_STORE_ID } from "../../server/demo/demo.ts";
import type { ProductPageFallback } from "../../server/feeds/feeds.service.ts";

/** The demo store's products have no shop page: its demo product pages (`/demo/products/{key}`) stand in. */
export const demoProductPages: ProductPageFallback = (storeId, productKey, origin) => (storeId === DEMO_STORE_ID ? `${origin}/demo/products/${encodeURIComponent(productKey)}` : null);

/** Whether an Accept-Encoding header takes gzip (a `q=0` refuses it). */
export function acceptsGzip(header: string | null): boolean {
  return (header ?? "").split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return !q || Number(q.slice(2)) > 0;
  });
}

/** GET /v1/stores/{storeId}/feeds/google-product-reviews.xml */
export const googleProductReviewsFeed = defineOperation({
  id: "getGoogleProductReviewsFeed",
  method: "GET",
  api: "storefront",
  auth: "none",
  tags: ["Feeds"],
  summary: "The store's Google Product Reviews feed (XML, schema 2.4)",
  description:
    "Every published review Google can take (with text and a product page), oldest first, in Google's Product Reviews feed format " +
    "(schema 2.4) with the product identifiers Chorus holds (GTIN, MPN, SKU, brand). For Merchant Center's scheduled fetch: the URL with its " +
    "secret token is in the admin and in `GET /enterprise/settings` (`feeds.googleProductReviewsUrl`). Streamed; gzip-compressed when the " +
    "request accepts gzip.",
  params: z.object({ storeId: storeIdParam }),
  query: z.object({ token: z.string().max(200).optional().meta({ description: "The store's feed token (part of the feed URL). Missing or wrong: 401." }) }),
  responses: {
    200: { description: "The feed", schema: z.string(), contentType: "application/xml" },
    401: { description: "The token is missing or wrong (it was rotated)", schema: errorResponses(400)[400].schema },
    ...errorResponses(400, 404),
  },
  handler: async ({ request, params, query, context }) => xmlReply(request, await context.services.feeds.googleProductReviews(params.storeId, query.token, context.publicOrigin, demoProductPages)),
});

/** The 200 answer of a feed: the XML stream, gzip-compressed when the request accepts gzip. */
function xmlReply(request: Request, stream: ReadableStream<Uint8Array>) {
  const gzip = acceptsGzip(request.headers.get("accept-encoding"));
  return reply(null, {
    raw: { body: gzip ? stream.pipeThrough(new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>) : stream, contentType: "application/xml; charset=utf-8" },
    headers: { vary: "Accept-Encoding", "x-content-type-options": "nosniff", ...(gzip ? { "content-encoding": "gzip" } : {}) },
  });
}

/** GET /v1/stores/{storeId}/feeds/google-merchant-reviews.xml */
export const googleMerchantReviewsFeed = defineOperation({
  id: "getGoogleMerchantReviewsFeed",
  method: "GET",
  api: "storefront",
  auth: "none",
  tags: ["Feeds"],
  summary: "The store's merchant review feed for Google seller ratings (XML, schema 5.0)",
  description:
    "Every published store review with text, oldest first, in Google's merchant review feed format (schema 5.0), for Google seller ratings. " +
    "The URL carries the same secret token as the Product Reviews feed: it is in the admin and in `GET /enterprise/settings` " +
    "(`feeds.googleMerchantReviewsUrl`). Streamed; gzip-compressed when the request accepts gzip.",
  params: z.object({ storeId: storeIdParam }),
  query: z.object({ token: z.string().max(200).optional().meta({ description: "The store's feed token (part of the feed URL). Missing or wrong: 401." }) }),
  responses: {
    200: { description: "The feed", schema: z.string(), contentType: "application/xml" },
    401: { description: "The token is missing or wrong (it was rotated)", schema: errorResponses(400)[400].schema },
    ...errorResponses(400, 404),
  },
  handler: async ({ request, params, query, context }) => xmlReply(request, await context.services.feeds.googleMerchantReviews(params.storeId, query.token, context.publicOrigin)),
});

/**
 * Server-rendered widget snippets (issue #25): the real Lit elements (widgets/) rendered on the server with
 * `@lit-labs/ssr` into declarative shadow DOM (`<template shadowrootmode="open">`), so a page shows the
 * rating, the first reviews and the first questions without JavaScript, and search engines read them.
 *
 * Each snippet is the element with its attributes, its shadow DOM, and in its light DOM a
 * `<script type="application/json" data-chorus-snapshot>` holding the API answers it rendered from (by path)
 * and its texts: on the page the element starts from them (widgets/internal/chorus-element.ts `takeSnapshot`),
 * so its first render equals the server's and it makes no request for the first page; Lit's first client
 * render replaces the server's nodes in the same task (no flash, no layout shift).
 * The reviews snippet of a product also carries the product's JSON-LD (server/snippets/structured-data.ts).
 *
 * Rendering runs inside the Remix build (the widgets' sources need vite's decorator transform: vite.config.ts),
 * where `lit` resolves to its Node build with Lit's DOM shim. Renders are synchronous; the page language of
 * dates and counts is `globalThis.__chorusLang` during a render (widgets/internal/format.ts).
 */
import { render } from "@lit-labs/ssr";
import { collectResultSync } from "@lit-labs/ssr/lib/render-result.js";
import { html, nothing } from "lit";
import { z } from "zod";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { SCOPE_PARAMS, type ReviewScopeName } from "../../server/contract/params.ts";
import type { Services } from "../../server/services.ts";
import type { ScopeParams } from "../../server/reviews/reviews.service.ts";
import { listReviewsQuery, listPageQuery } from "../../server/contract/storefront.ts";
import { contentScope } from "../../server/shared/content-scopes.ts";
import { jsonLdScript, productJsonLd, STRUCTURED_DATA_REVIEWS, type ProductJsonLd } from "../../server/snippets/structured-data.ts";
import { SHOPIFY_VALUE_MAX, writeShopifyMetafields, type SnippetMetafield, type WriteReport } from "../../server/snippets/shopify-metafields.ts";
import { merchantTextsApply, uiLocaleFor } from "../../server/contract/widget-locales.ts";
import { translationPart } from "../../server/contract/widget-translations.ts";
import type { Snapshot } from "../../widgets/internal/chorus-element.ts";
import { ChorusStarRating } from "../../widgets/star-rating/chorus-star-rating.ts";
import { ChorusReviews } from "../../widgets/reviews/chorus-reviews.ts";
import { ChorusQuestions } from "../../widgets/questions/chorus-questions.ts";
import { ChorusReviewsSummary } from "../../widgets/reviews-summary/chorus-reviews-summary.ts";

/** The widgets a snippet can be, by the path word: its tag and the scopes where it exists. */
export const SNIPPET_WIDGETS = {
  "star-rating": { tag: "chorus-star-rating", scopes: ["product", "group", "store"] },
  reviews: { tag: "chorus-reviews", scopes: ["product", "group", "store"] },
  questions: { tag: "chorus-questions", scopes: ["product", "group"] },
  "reviews-summary": { tag: "chorus-reviews-summary", scopes: ["product"] },
} as const;
export type SnippetWidget = keyof typeof SNIPPET_WIDGETS;
export const SNIPPET_WIDGET_NAMES = Object.keys(SNIPPET_WIDGETS) as SnippetWidget[];

/** Reviews in the reviews snippet's first page: the element's default `page-size` ("Load more" continues with it). */
export const SNIPPET_REVIEWS_PAGE = 25;
/** Questions in the questions snippet (the element's own first page size). */
const SNIPPET_QUESTIONS_PAGE = 10;
/** The reviews snippet's order: the element's default, `date desc`. */
const SNIPPET_ORDER = "date desc";

// Define the elements now: their own decorator defines them a few tasks later (widgets/internal/chorus-element.ts).
for (const [tag, cls] of [
  ["chorus-star-rating", ChorusStarRating],
  ["chorus-reviews", ChorusReviews],
  ["chorus-questions", ChorusQuestions],
  ["chorus-reviews-summary", ChorusReviewsSummary],
] as const) {
  if (!customElements.get(tag)) customElements.define(tag, cls as unknown as CustomElementConstructor);
}

/** What a snippet render needs. `lang`: the page language (texts and dates), a BCP 47 tag; default `en`. */
export type SnippetRequest = {
  params: ScopeParams;
  widget: SnippetWidget;
  lang?: string;
  publicOrigin: string;
  /** The star rating's `href` (makes the badge a link, e.g. `#reviews`). */
  href?: string;
  /** Reviews in the reviews snippet (its `page-size`), 1..25; default SNIPPET_REVIEWS_PAGE. */
  limit?: number;
};
/** A rendered snippet: its HTML and the content scopes it read (for the response cache and ETag). */
export type RenderedSnippet = { html: string; scopes: string[] };

/** `/v1/stores/{storeId}` plus the scope's path (the widgets' `scopeUrl` without the origin). */
function scopePath(params: ScopeParams): string {
  const store = `/v1/stores/${encodeURIComponent(params.storeId)}`;
  if ("productKey" in params && params.productKey) return `${store}/products/${encodeURIComponent(params.productKey)}`;
  if ("groupId" in params && params.groupId) return `${store}/collections/${encodeURIComponent(params.groupId)}`;
  return store;
}

/** Render `template` (one element) to HTML and put the snapshot script into its light DOM. */
function renderElement(tag: string, template: unknown, snapshot: Snapshot, lang: string): string {
  // Serialised first: the element takes (and drops) its answers from the snapshot as it renders.
  const script = `<script type="application/json" data-chorus-snapshot>${JSON.stringify(snapshot).replace(/</g, "\\u003c")}</script>`;
  const global = globalThis as { __chorusLang?: string };
  const before = global.__chorusLang;
  global.__chorusLang = lang;
  let markup: string;
  try {
    markup = collectResultSync(render(template));
  } finally {
    global.__chorusLang = before;
  }
  // Lit's part markers are for its own hydration, which the elements do not use (they re-render in place).
  markup = markup.replace(/<!--\/?lit-part[^>]*-->|<!--lit-node \d+-->|<\?>/g, "");
  // One space between attributes (the template's unset bindings leave runs of them).
  markup = markup.replace(new RegExp(`^<${tag}[^>]*>`), (open) => open.replace(/\s+/g, " "));
  const end = markup.lastIndexOf(`</${tag}>`);
  return `${markup.slice(0, end)}${script}${markup.slice(end)}`;
}

/**
 * Render one snippet. @throws ApiError 404 for an unknown store, product or group (as the JSON reads).
 * A widget the merchant turned off renders `hidden` (as the element does once it reads the settings).
 */
export async function renderSnippet(services: Services, request: SnippetRequest): Promise<RenderedSnippet> {
  const { params, widget, publicOrigin } = request;
  const lang = request.lang ?? "en";
  const { reviews } = services;
  const scopes = [...(await reviews.cacheScopes(params)), contentScope.widgets(params.storeId)];
  const settings = await services.widgetSettings.forShoppers(params.storeId, lang);
  const base = scopePath(params);
  const productKey = "productKey" in params ? params.productKey : undefined;
  const groupId = "groupId" in params ? params.groupId : undefined;
  const responses: Record<string, unknown> = {};
  // The merchant's texts in their own language only, and the shipped translation of the widget's texts (issue #23 item 3).
  const ui = uiLocaleFor(lang);
  const group = { "star-rating": "starRating", reviews: "reviews", questions: "questions", "reviews-summary": "summary" }[widget] ?? "";
  const snapshot: Snapshot = { responses, texts: merchantTextsApply(settings.locale, lang, ui) ? settings.texts : {}, translation: translationPart(ui, group) };
  const style = [settings.colors.accent && `--chorus-accent: ${settings.colors.accent}`, settings.colors.star && `--chorus-star: ${settings.colors.star}`].filter(Boolean).join("; ");
  const key = { "star-rating": "starRating", reviews: "reviews", questions: "questions", "reviews-summary": "summary" }[widget] as keyof typeof settings.widgets;
  const hidden = settings.widgets[key] === false;
  // Shared attributes, as a merchant writes them; `server-rendered` lets a page's CSS skip its loading reservation.
  const common = { storeId: params.storeId, productId: productKey || nothing, groupId: groupId || nothing, apiBase: publicOrigin, style: style || nothing };
  let markup: string;
  let jsonLd = "";
  if (widget === "star-rating") {
    responses[`${base}/review_aggregate`] = await reviews.getAggregate(params);
    markup = renderElement(
      "chorus-star-rating",
      html`<chorus-star-rating
        server-rendered
        ?hidden=${hidden}
        href=${request.href || nothing}
        store-id=${common.storeId}
        product-id=${common.productId}
        group-id=${common.groupId}
        api-base=${common.apiBase}
        style=${common.style}
        .snapshot=${snapshot}
        .texts=${snapshot.texts}
        .translation=${snapshot.translation}
      ></chorus-star-rating>`,
      snapshot,
      lang,
    );
  } else if (widget === "reviews") {
    const limit = request.limit ?? SNIPPET_REVIEWS_PAGE;
    const query = listReviewsQuery.parse({ limit: String(limit), orderBy: SNIPPET_ORDER });
    const page = await reviews.listReviews(params, query, publicOrigin);
    responses[`${base}/reviews?${new URLSearchParams({ limit: String(limit), orderBy: SNIPPET_ORDER })}`] = page;
    // The rating breakdown's counts and a product's attribute filters (widgets/reviews/chorus-reviews.ts), so the page requests neither.
    const aggregate = await reviews.getAggregate(params);
    responses[`${base}/review_aggregate`] = aggregate;
    if (productKey) responses[`${base}/attributes`] = await reviews.productAttributes(params);
    markup = renderElement(
      "chorus-reviews",
      html`<chorus-reviews
        server-rendered
        ?hidden=${hidden}
        store-id=${common.storeId}
        product-id=${common.productId}
        group-id=${common.groupId}
        api-base=${common.apiBase}
        style=${common.style}
        page-size=${limit}
        .snapshot=${snapshot}
        .texts=${snapshot.texts}
        .translation=${snapshot.translation}
      ></chorus-reviews>`,
      snapshot,
      lang,
    );
    if (productKey) {
      const data = await structuredDataFrom(services, { storeId: params.storeId, productKey }, aggregate.reviewAggregate, page.reviews);
      if (data) jsonLd = jsonLdScript(data);
    }
  } else if (widget === "reviews-summary") {
    // the element's URL (widgets/reviews-summary): in the snippet's language unless English (docs/ai.md, Languages)
    responses[`${base}/reviews_summary${ui === "en" ? "" : `?locale=${ui}`}`] = await services.ai.getSummary(params, ui);
    scopes.push(...(await services.ai.cacheScopes(params)));
    markup = renderElement(
      "chorus-reviews-summary",
      html`<chorus-reviews-summary
        server-rendered
        ?hidden=${hidden}
        store-id=${common.storeId}
        product-id=${common.productId}
        api-base=${common.apiBase}
        style=${common.style}
        .snapshot=${snapshot}
        .texts=${snapshot.texts}
        .translation=${snapshot.translation}
      ></chorus-reviews-summary>`,
      snapshot,
      lang,
    );
  } else {
    const query = listPageQuery.parse({ limit: String(SNIPPET_QUESTIONS_PAGE) });
    responses[`${base}/questions?limit=${SNIPPET_QUESTIONS_PAGE}`] = await reviews.listQuestions(params, query);
    markup = renderElement(
      "chorus-questions",
      html`<chorus-questions
        server-rendered
        ?hidden=${hidden}
        store-id=${common.storeId}
        product-id=${common.productId}
        group-id=${common.groupId}
        api-base=${common.apiBase}
        style=${common.style}
        .snapshot=${snapshot}
        .texts=${snapshot.texts}
        .translation=${snapshot.translation}
      ></chorus-questions>`,
      snapshot,
      lang,
    );
  }
  return { html: markup + jsonLd, scopes: [...new Set(scopes)] };
}

/** The product's JSON-LD from its row, its aggregate and `firstReviews` (newest first); null without published reviews. */
async function structuredDataFrom(
  services: Services,
  params: { storeId: string; productKey: string },
  reviewAggregate: Parameters<typeof productJsonLd>[1],
  firstReviews: Parameters<typeof productJsonLd>[2],
): Promise<ProductJsonLd | null> {
  if (reviewAggregate.reviewCount === 0) return null;
  const store = await services.stores.get(params.storeId);
  const productId = store && params.productKey.startsWith(`${store.platform}-`) ? params.productKey.slice(store.platform.length + 1) : params.productKey;
  const product = await services.stores.getProduct(params.storeId, productId);
  return productJsonLd({ name: product?.name ?? params.productKey, url: product?.url, imageUrl: product?.imageUrl, productKey: params.productKey }, reviewAggregate, firstReviews);
}

/**
 * The JSON-LD of a product's reviews (`Product` with `aggregateRating` and up to 10 `Review`s), or null when
 * it has no published reviews. @throws ApiError 404 for an unknown store or product.
 */
export async function productStructuredData(services: Services, params: { storeId: string; productKey: string }, publicOrigin: string): Promise<{ data: ProductJsonLd | null; scopes: string[] }> {
  const scopes = await services.reviews.cacheScopes(params);
  const query = listReviewsQuery.parse({ limit: String(STRUCTURED_DATA_REVIEWS), orderBy: SNIPPET_ORDER });
  const page = await services.reviews.listReviews(params, query, publicOrigin);
  const { reviewAggregate } = await services.reviews.getAggregate(params);
  return { data: await structuredDataFrom(services, params, reviewAggregate, page.reviews), scopes };
}

const LANG = z
  .string()
  .max(35)
  .regex(/^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8})*$/, "must be a language tag like en, de or pt-BR")
  .optional()
  .meta({ description: "The page's language (BCP 47 tag, e.g. `de`): the merchant's texts for it and its date format; default `en`." });
const SCOPE_WORDS: Record<ReviewScopeName, string> = { product: "a product", group: "a review group (collection)", store: "the whole store" };
const Capital: Record<ReviewScopeName, string> = { product: "Product", group: "Group", store: "Store" };

/** GET …/snippets/{widget} in `scope`: the server-rendered element as an HTML fragment. */
export const getSnippet = (scope: ReviewScopeName) => {
  const widgets = SNIPPET_WIDGET_NAMES.filter((w) => (SNIPPET_WIDGETS[w].scopes as readonly string[]).includes(scope));
  return defineOperation({
    id: `get${Capital[scope]}Snippet`,
    method: "GET",
    api: "storefront",
    auth: "none",
    cache: "public",
    readsOnly: true,
    tags: ["Snippets"],
    summary: `A server-rendered widget of ${SCOPE_WORDS[scope]} (HTML with declarative shadow DOM)`,
    description:
      'The widget element with its shadow DOM (`<template shadowrootmode="open">`) and the data it rendered from, to put into the shop\'s HTML: ' +
      "shoppers and search engines see the content without JavaScript; `/widgets/chorus.js` then makes it interactive without requesting the first page again. " +
      `Widgets here: ${widgets.map((w) => `\`${w}\``).join(", ")}. The product's reviews snippet also carries its JSON-LD (see structured_data). See docs/snippets.md.`,
    params: SCOPE_PARAMS[scope].extend({ widget: z.enum(widgets as [SnippetWidget, ...SnippetWidget[]], { error: `widget must be one of: ${widgets.join(", ")}` }) }),
    query: z.object({
      lang: LANG,
      limit: z.coerce
        .number({ error: "limit must be a whole number from 1 to 25" })
        .int("limit must be a whole number from 1 to 25")
        .min(1, "limit must be a whole number from 1 to 25")
        .max(25, "limit must be a whole number from 1 to 25")
        .optional()
        .meta({ description: `The reviews snippet: reviews on its first page, 1..25 (default ${SNIPPET_REVIEWS_PAGE}); "Load more" continues with pages of that size.` }),
    }),
    responses: { 200: { description: "The snippet (an HTML fragment)", contentType: "text/html", schema: z.string() }, ...errorResponses(400, 404) },
    handler: async ({ params, query, context }) => {
      const { widget, ...scopeParams } = params as ScopeParams & { widget: SnippetWidget };
      const snippet = await renderSnippet(context.services, { params: scopeParams, widget, lang: query.lang, limit: query.limit, publicOrigin: context.publicOrigin });
      return reply(null, { raw: { body: snippet.html, contentType: "text/html; charset=utf-8" }, scopes: snippet.scopes });
    },
  });
};

const jsonLdSchema = z
  .object({ "@context": z.literal("https://schema.org"), "@type": z.literal("Product"), name: z.string(), aggregateRating: z.object({}).passthrough(), review: z.array(z.object({}).passthrough()) })
  .passthrough()
  .meta({ description: "A schema.org `Product` with `aggregateRating` and up to 10 `review`s" });

/** GET /v1/stores/{storeId}/products/{productKey}/structured_data: the product's review JSON-LD. */
export const getProductStructuredData = defineOperation({
  id: "getProductStructuredData",
  method: "GET",
  api: "storefront",
  auth: "none",
  cache: "public",
  readsOnly: true,
  tags: ["Snippets"],
  summary: "The product's review structured data (schema.org JSON-LD) for search engines",
  description:
    "`structuredData`: a schema.org `Product` (name, URL and image from the product's record) with `aggregateRating` (the average rounded as the widgets show it, " +
    "`reviewCount`, `bestRating` 5, `worstRating` 1) and up to 10 `Review`s, newest first; null when the product has no published reviews. " +
    'Put it into the product page as `<script type="application/ld+json">`, once per product (the reviews snippet already carries it).',
  params: SCOPE_PARAMS.product,
  responses: { 200: { description: "`{ structuredData }`", schema: z.object({ structuredData: jsonLdSchema.nullable() }) }, ...errorResponses(404) },
  handler: async ({ params, context }) => {
    const { data, scopes } = await productStructuredData(context.services, params, context.publicOrigin);
    return reply({ structuredData: data }, { scopes });
  },
});

/**
 * The Admin API endpoint override (`SHOPIFY_ADMIN_API_URL`, server/config.ts), read at call time like
 * demoShopperSwitchAllowed: unset means `https://{shop}/admin/api/{version}/graphql.json`.
 */
export const shopifyAdminApiUrl = (env: Record<string, string | undefined> = process.env): string | undefined => env.SHOPIFY_ADMIN_API_URL || undefined;

/**
 * Write the star rating and reviews snippets of every product of the store with published reviews into its
 * Shopify shop as metafields (server/snippets/shopify-metafields.ts); the admin's Platform page runs it with a
 * token typed there (never stored). A reviews snippet over a metafield's size is rendered again with fewer
 * reviews. Yields to the event loop between products (each render builds its HTML synchronously).
 * @returns the write report and the number of products.
 */
export async function writeSnippetsToShopify(
  services: Services,
  options: { storeId: string; shopDomain: string; accessToken: string; publicOrigin: string; lang?: string; apiUrl?: string },
): Promise<WriteReport & { products: number }> {
  const store = await services.stores.get(options.storeId);
  if (!store) return { written: 0, errors: ["Store not found"], products: 0 };
  const products = await services.stores.topProducts(store.storeId, 1_000_000);
  const metafields: SnippetMetafield[] = [];
  for (const p of products) {
    const base = { params: { storeId: store.storeId, productKey: `${store.platform}-${p.productId}` }, lang: options.lang, publicOrigin: options.publicOrigin };
    metafields.push({ productId: p.productId, widget: "star-rating", html: (await renderSnippet(services, { ...base, widget: "star-rating" })).html });
    let limit = SNIPPET_REVIEWS_PAGE;
    let html = (await renderSnippet(services, { ...base, widget: "reviews", limit })).html;
    while (html.length > SHOPIFY_VALUE_MAX && limit > 1) {
      limit = Math.max(1, Math.floor(limit / 2));
      html = (await renderSnippet(services, { ...base, widget: "reviews", limit })).html;
    }
    metafields.push({ productId: p.productId, widget: "reviews", html });
    await new Promise((resolve) => setImmediate(resolve));
  }
  const report = await writeShopifyMetafields({ shopDomain: options.shopDomain, accessToken: options.accessToken, apiUrl: options.apiUrl }, metafields, {
    allowLoopback: services.allowLoopbackRequests,
  });
  return { ...report, products: products.length };
}

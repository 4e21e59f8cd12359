/**
 * Operation declarations of the AI storefront reads (docs/ai.md, Answers): a product's reviews summary
 * and keyword topics (group-level content when the product's group uses it); `{}` when there is none. `locale`:
 * the summary and topic names in the page's language (docs/ai.md, Languages).
 */
import { SCOPE_PARAMS } from "../../server/contract/params.ts";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { reviewsKeywordsResponseSchema, reviewsSummaryResponseSchema } from "../../server/contract/storefront.responses.ts";
import { aiContentQuery } from "../../server/contract/storefront.ts";

const aiRead = { method: "GET", api: "storefront", auth: "none", cache: "public", readsOnly: true, tags: ["AI"], params: SCOPE_PARAMS.product, query: aiContentQuery } as const;

/** GET …/products/{platform}-{id}/reviews_summary */
export const reviewsSummary = defineOperation({
  ...aiRead,
  id: "getProductReviewsSummary",
  summary: "The published AI summary of a product's reviews",
  responses: { 200: { description: "`{ reviewsSummary }`, or `{}` when no summary is published", schema: reviewsSummaryResponseSchema }, ...errorResponses(404) },
  handler: async ({ params, query, context }) => reply(await context.services.ai.getSummary(params, query.locale), { scopes: await context.services.ai.cacheScopes(params) }),
});

/** GET …/products/{platform}-{id}/reviews_keywords */
export const reviewsKeywords = defineOperation({
  ...aiRead,
  id: "getProductReviewsKeywords",
  summary: "The published keyword topics of a product's reviews",
  responses: { 200: { description: "`{ reviewsKeywords: { keywordTopics } }`, or `{}` when none are published", schema: reviewsKeywordsResponseSchema }, ...errorResponses(404) },
  handler: async ({ params, query, context }) => reply(await context.services.ai.getKeywords(params, query.locale), { scopes: await context.services.ai.cacheScopes(params) }),
});

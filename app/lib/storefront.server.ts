/**
 * Operation declarations of the storefront reviews reads (docs/api.md, Endpoints and scopes): reviews, aggregate,
 * media and questions, each in three scopes (product, review group, store; questions in the first two).
 * A route module picks the scope: `export const operations = [listReviews("product")]`. Each answer
 * names the content scopes it read (`reviews.cacheScopes`), so the response cache keeps it across
 * commits that change other products (decision 0007).
 */

import { listQuestionsQuery, listReviewsQuery, listPageQuery, parseAttributeFilters } from "../../server/contract/storefront.ts";
import { SCOPE_PARAMS, storeIdParam, type ReviewScopeName } from "../../server/contract/params.ts";
import { badRequest } from "../../server/contract/errors.ts";
import { z } from "zod";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import {
  getReviewResponseSchema,
  listQuestionsResponseSchema,
  listReviewMediaResponseSchema,
  listReviewsResponseSchema,
  productAttributesResponseSchema,
  questionAggregateResponseSchema,
  reviewAggregateResponseSchema,
} from "../../server/contract/storefront.responses.ts";

const SCOPE_WORDS: Record<ReviewScopeName, string> = { product: "a product", group: "a review group (collection)", store: "the whole store" };
const Capital: Record<ReviewScopeName, string> = { product: "Product", group: "Group", store: "Store" };

/** Options every public storefront read shares. */
const publicRead = { method: "GET", api: "storefront", auth: "none", cache: "public", readsOnly: true } as const;

/** GET …/reviews in `scope`: published reviews, keyset-paged (`nextUrl`). */
export const listReviews = (scope: ReviewScopeName) =>
  defineOperation({
    ...publicRead,
    id: `list${Capital[scope]}Reviews`,
    tags: ["Reviews"],
    summary: `List the published reviews of ${SCOPE_WORDS[scope]}`,
    description:
      "Published reviews in the requested order, at most `limit` per page; follow `nextUrl` (relative to `/v1`) for the next page. " +
      "`shopperAttributes` / `generalAttributes` (Okendo-compatible, repeatable) keep the reviews with the given product attribute values; " +
      "`rating`, `media` and `verified` keep reviews by stars, photos or videos and verified buyers; `search` finds reviews by the words of their " +
      "title and body (each review then carries `highlights`). Filters combine with each other and with any `orderBy`; `nextUrl` carries them. " +
      "Each review's `body` (and its reply's) is safe as HTML: `&`, `<`, `>` come as entities.",
    params: SCOPE_PARAMS[scope],
    query: listReviewsQuery,
    responses: { 200: { description: "A page of reviews", schema: listReviewsResponseSchema }, ...errorResponses(400, 404) },
    handler: async ({ request, params, query, context }) => {
      const { reviews } = context.services;
      // Repeated filter parameters: the parsed query keeps one value, so read them all from the URL.
      const attributeFilters = parseAttributeFilters(new URL(request.url).searchParams);
      if (typeof attributeFilters === "string") throw badRequest(attributeFilters);
      return reply(await reviews.listReviews(params, { ...query, attributeFilters }, context.publicOrigin), { scopes: await reviews.cacheScopes(params) });
    },
  });

/** GET …/review_aggregate in `scope`. */
export const reviewAggregate = (scope: ReviewScopeName) =>
  defineOperation({
    ...publicRead,
    id: `get${Capital[scope]}ReviewAggregate`,
    tags: ["Reviews"],
    summary: `The review aggregate (count, average, count per star) of ${SCOPE_WORDS[scope]}`,
    params: SCOPE_PARAMS[scope],
    responses: { 200: { description: "The aggregate; zeros when there are no published reviews", schema: reviewAggregateResponseSchema }, ...errorResponses(404) },
    handler: async ({ params, context }) => reply(await context.services.reviews.getAggregate(params), { scopes: await context.services.reviews.cacheScopes(params) }),
  });

/** GET …/review_media in `scope`. */
export const listReviewMedia = (scope: ReviewScopeName) =>
  defineOperation({
    ...publicRead,
    id: `list${Capital[scope]}ReviewMedia`,
    tags: ["Reviews"],
    summary: `List the published photos and videos of reviews of ${SCOPE_WORDS[scope]}`,
    params: SCOPE_PARAMS[scope],
    query: listPageQuery,
    responses: { 200: { description: "A page of review media, newest first", schema: listReviewMediaResponseSchema }, ...errorResponses(400, 404) },
    handler: async ({ params, query, context }) => {
      const { reviews } = context.services;
      return reply(await reviews.listMedia(params, query, context.publicOrigin), { scopes: await reviews.cacheScopes(params) });
    },
  });

/** GET …/questions in the product or group scope. */
export const listQuestions = (scope: "product" | "group") =>
  defineOperation({
    ...publicRead,
    id: `list${Capital[scope]}Questions`,
    tags: ["Questions"],
    summary: `List the published questions of ${SCOPE_WORDS[scope]} with their published answers`,
    description:
      "Each question also carries `author` (the asker), `helpfulCount` and `unhelpfulCount` (Okendo-compatible); answers carry their vote counts, and their `body` is safe as HTML (`&`, `<`, `>` as entities).",
    params: SCOPE_PARAMS[scope],
    query: listQuestionsQuery,
    responses: { 200: { description: "A page of questions in the requested order (newest first by default)", schema: listQuestionsResponseSchema }, ...errorResponses(400, 404) },
    handler: async ({ params, query, context }) => {
      const { reviews } = context.services;
      return reply(await reviews.listQuestions(params, query), { scopes: await reviews.cacheScopes(params) });
    },
  });

/** GET /stores/{storeId}/reviews/{reviewId} (docs/api.md, Okendo-compatible): one published review. */
export const getReview = defineOperation({
  ...publicRead,
  id: "getStoreReview",
  tags: ["Reviews"],
  summary: "One published review of the store (Okendo-compatible)",
  description: "The review as the listings show it (its `body` safe as HTML). 404 for an unknown, unpublished or other store's review.",
  params: z.object({ storeId: storeIdParam, reviewId: z.string().min(1).max(200).meta({ description: "The review's ID." }) }),
  responses: { 200: { description: "The review", schema: getReviewResponseSchema }, ...errorResponses(404) },
  handler: async ({ params, context }) => {
    const { reviews } = context.services;
    return reply(await reviews.getReview(params.storeId, params.reviewId, context.publicOrigin), { scopes: await reviews.reviewCacheScopes(params.storeId, params.reviewId) });
  },
});

/** GET /products/{productKey}/question_aggregate (Okendo-compatible). */
export const questionAggregate = defineOperation({
  ...publicRead,
  id: "getProductQuestionAggregate",
  tags: ["Questions"],
  summary: "How many published questions a product has (Okendo-compatible)",
  params: SCOPE_PARAMS.product,
  responses: { 200: { description: "The question count (0 for a product without questions)", schema: questionAggregateResponseSchema }, ...errorResponses(404) },
  handler: async ({ params, context }) => reply(await context.services.reviews.questionAggregate(params), { scopes: await context.services.reviews.cacheScopes(params) }),
});

/** GET /products/{productKey}/attributes (Okendo-compatible): the attribute filters of a product's reviews. */
export const productAttributes = defineOperation({
  ...publicRead,
  id: "listProductAttributes",
  tags: ["Reviews"],
  summary: "The product attributes a product's reviews can be filtered by (Okendo-compatible)",
  description: "Each attribute with the values its published reviews gave; filter the reviews with `generalAttributes=Title,value1,value2`.",
  params: SCOPE_PARAMS.product,
  responses: { 200: { description: "The attributes (an empty list when the reviews have none)", schema: productAttributesResponseSchema }, ...errorResponses(404) },
  handler: async ({ params, context }) => reply(await context.services.reviews.productAttributes(params), { scopes: await context.services.reviews.cacheScopes(params) }),
});

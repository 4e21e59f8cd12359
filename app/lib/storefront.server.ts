/**
 * Operation declarations of the storefront reviews reads (interface.md §4.2): reviews, aggregate,
 * media and questions, each in three scopes (product, review group, store; questions in the first two).
 * A route module picks the scope: `export const operations = [listReviews("product")]`. Each answer
 * names the content scopes it read (`reviews.cacheScopes`), so the response cache keeps it across
 * commits that change other products (decision 0007).
 */

import { listPageQuery, listReviewsQuery } from "../../server/contract/storefront.ts";
import { SCOPE_PARAMS, type ReviewScopeName } from "../../server/contract/params.ts";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { listQuestionsResponseSchema, listReviewMediaResponseSchema, listReviewsResponseSchema, reviewAggregateResponseSchema } from "../../server/contract/storefront.responses.ts";


const SCOPE_WORDS: Record<ReviewScopeName, string> = { product: "a product", group: "a review group (collection)", store: "the whole store" };
const Capital: Record<ReviewScopeName, string> = { product: "Product", group: "Group", store: "Store" };

/** Options every public storefront read shares. */
const publicRead = { method: "GET", api: "storefront", auth: "none", cache: "public", readsOnly: true } as const;

/** GET …/reviews in `scope`: published reviews, keyset-paged (`nextUrl`). */
export const listReviews = (scope: ReviewScopeName) =>
  defineOperation({
    ...publicRead, id: `list${Capital[scope]}Reviews`, tags: ["Reviews"],
    summary: `List the published reviews of ${SCOPE_WORDS[scope]}`,
    description: "Published reviews in the requested order, at most `limit` per page; follow `nextUrl` (relative to `/v1`) for the next page.",
    params: SCOPE_PARAMS[scope], query: listReviewsQuery,
    responses: { 200: { description: "A page of reviews", schema: listReviewsResponseSchema }, ...errorResponses(400, 404) },
    handler: async ({ params, query, context }) => {
      const { reviews } = context.services;
      return reply(await reviews.listReviews(params, query, context.publicOrigin), { scopes: reviews.cacheScopes(params) });
    },
  });

/** GET …/review_aggregate in `scope`. */
export const reviewAggregate = (scope: ReviewScopeName) =>
  defineOperation({
    ...publicRead, id: `get${Capital[scope]}ReviewAggregate`, tags: ["Reviews"],
    summary: `The review aggregate (count, average, count per star) of ${SCOPE_WORDS[scope]}`,
    params: SCOPE_PARAMS[scope],
    responses: { 200: { description: "The aggregate; zeros when there are no published reviews", schema: reviewAggregateResponseSchema }, ...errorResponses(404) },
    handler: ({ params, context }) => reply(context.services.reviews.getAggregate(params), { scopes: context.services.reviews.cacheScopes(params) }),
  });

/** GET …/review_media in `scope`. */
export const listReviewMedia = (scope: ReviewScopeName) =>
  defineOperation({
    ...publicRead, id: `list${Capital[scope]}ReviewMedia`, tags: ["Reviews"],
    summary: `List the published photos and videos of reviews of ${SCOPE_WORDS[scope]}`,
    params: SCOPE_PARAMS[scope], query: listPageQuery,
    responses: { 200: { description: "A page of review media, newest first", schema: listReviewMediaResponseSchema }, ...errorResponses(400, 404) },
    handler: ({ params, query, context }) => {
      const { reviews } = context.services;
      return reply(reviews.listMedia(params, query, context.publicOrigin), { scopes: reviews.cacheScopes(params) });
    },
  });

/** GET …/questions in the product or group scope. */
export const listQuestions = (scope: "product" | "group") =>
  defineOperation({
    ...publicRead, id: `list${Capital[scope]}Questions`, tags: ["Questions"],
    summary: `List the published questions of ${SCOPE_WORDS[scope]} with their published answers`,
    params: SCOPE_PARAMS[scope], query: listPageQuery,
    responses: { 200: { description: "A page of questions, newest first", schema: listQuestionsResponseSchema }, ...errorResponses(400, 404) },
    handler: ({ params, query, context }) => {
      const { reviews } = context.services;
      return reply(reviews.listQuestions(params, query), { scopes: reviews.cacheScopes(params) });
    },
  });



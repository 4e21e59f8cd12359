/**
 * Loaders of the storefront reviews routes (interface.md §4.2). One loader per operation serves all
 * three scopes: the route's params say which (`productKey` → product, `groupId` → group, neither → store).
 * Each names the content scopes its answer read (`reviews.cacheScopes`), so the response cache keeps it
 * across commits that change other products (decision 0007).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { listPageQuery, listReviewsQuery } from "../../server/contract/storefront.ts";
import type { ScopeParams } from "../../server/reviews/reviews.service.ts";
import { handle, json, parseQuery, requestOrigin } from "./api.server.ts";

export const scopeParams = (params: LoaderFunctionArgs["params"]): ScopeParams => ({
  storeId: params.storeId ?? "",
  productKey: params.productKey,
  groupId: params.groupId,
});

/** A public JSON answer that names the content scopes of the route's scope (`reviews.cacheScopes`). */
const publicJson = (request: Request, { params, context }: Pick<LoaderFunctionArgs, "params" | "context">, body: unknown) =>
  json(request, body, { cache: "public", scopes: context.services.reviews.cacheScopes(scopeParams(params)) });

/** GET …/reviews */
export const listReviewsLoader = handle(async ({ request, params, context }: LoaderFunctionArgs) => {
  const query = parseQuery(request, listReviewsQuery);
  return publicJson(request, { params, context }, await context.services.reviews.listReviews(scopeParams(params), query, requestOrigin(request)));
});

/** GET …/review_aggregate */
export const reviewAggregateLoader = handle(({ request, params, context }: LoaderFunctionArgs) =>
  publicJson(request, { params, context }, context.services.reviews.getAggregate(scopeParams(params))),
);

/** GET …/review_media */
export const listReviewMediaLoader = handle(({ request, params, context }: LoaderFunctionArgs) => {
  const query = parseQuery(request, listPageQuery);
  return publicJson(request, { params, context }, context.services.reviews.listMedia(scopeParams(params), query, requestOrigin(request)));
});

/** GET …/questions (product and group scope) */
export const listQuestionsLoader = handle(({ request, params, context }: LoaderFunctionArgs) => {
  const query = parseQuery(request, listPageQuery);
  return publicJson(request, { params, context }, context.services.reviews.listQuestions(scopeParams(params), query));
});

/**
 * Loaders of the AI storefront routes (interface.md §4.2): reviews summary and reviews keywords of a
 * product (group-level content when the product's group uses it). `{}` when unavailable. They take no
 * query parameters (unknown ones are ignored, decisions.md §1).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { handle, json } from "./api.server.ts";
import { scopeParams } from "./storefront.server.ts";

/** GET …/products/{platform}-{id}/reviews_summary */
export const reviewsSummaryLoader = handle(({ request, params, context }: LoaderFunctionArgs) =>
  json(request, context.services.ai.getSummary(scopeParams(params)), { cache: "public", scopes: context.services.ai.cacheScopes(scopeParams(params)) }),
);

/** GET …/products/{platform}-{id}/reviews_keywords */
export const reviewsKeywordsLoader = handle(({ request, params, context }: LoaderFunctionArgs) =>
  json(request, context.services.ai.getKeywords(scopeParams(params)), { cache: "public", scopes: context.services.ai.cacheScopes(scopeParams(params)) }),
);

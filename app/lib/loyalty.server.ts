/**
 * Loaders and actions of the storefront loyalty routes (interface.md §4.3, §5; decisions.md §4) and the
 * enterprise order-earning action. Thin: parse (zod), authenticate, call `services.loyalty`, answer JSON.
 *
 * Unauthenticated GETs (general program) are `Cache-Control: public` and go through the response cache;
 * answers to requests with `Authorization` are tailored and `private, no-store` (the cache skips them).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { customerActivationBody, loginBody, orderEarningBody, PARTNER_HEADER, redemptionBody } from "../../server/contract/loyalty.ts";
import { listPageQuery } from "../../server/contract/storefront.ts";
import { ApiError, badRequest } from "../../server/contract/errors.ts";
import { contentScope } from "../../server/shared/content-scopes.ts";
import { errorResponse, handle, json, parseQuery, zodToApiError } from "./api.server.ts";

/** Largest accepted JSON body, in bytes. */
const MAX_BODY_BYTES = 64 * 1024;

/** Read and validate a JSON body. @throws ApiError 400 (not JSON, too large, schema), 415 (content type). */
export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) throw new ApiError(415, "Send the body as JSON with Content-Type: application/json", "unsupported_media_type");
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw badRequest(`The body is too large (at most ${MAX_BODY_BYTES} bytes)`, "body_too_large");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw badRequest("The body is not valid JSON", "invalid_json");
  }
  const result = schema.safeParse(data);
  if (!result.success) throw zodToApiError(result.error, "body");
  return result.data;
}

/** 405 with the JSON error shape, for a method the endpoint does not serve. */
export const methodNotAllowed = (allow: string) => () =>
  errorResponse(new ApiError(405, `This endpoint accepts ${allow} only`, "method_not_allowed"));

const storeIdOf = (params: LoaderFunctionArgs["params"]) => params.storeId ?? "";

/**
 * The content scopes the general program reads (server/db/content-scopes.ts): the store and its loyalty
 * data. Used only on answers the service gave, so the store exists under exactly this ID.
 */
const programScopes = (storeId: string) => [contentScope.store(storeId), contentScope.loyalty(storeId)];

/** POST /loyalty/login */
export const loginAction = handle(async ({ request, params, context }: ActionFunctionArgs) => {
  const storeId = storeIdOf(params);
  context.services.loyalty.legalPolicies(storeId); // 404 for an unknown store before reading the body
  const body = await readJsonBody(request, loginBody);
  return json(request, await context.services.loyalty.login(storeId, body.customerAccessToken));
});

/** GET /loyalty/legal_policies */
export const legalPoliciesLoader = handle(({ request, params, context }: LoaderFunctionArgs) =>
  json(request, context.services.loyalty.legalPolicies(storeIdOf(params)), {
    cache: request.headers.has("authorization") ? "private" : "public", scopes: programScopes(storeIdOf(params)),
  }),
);

/** POST /loyalty/customer_activation */
export const customerActivationAction = handle(async ({ request, params, context }: ActionFunctionArgs) => {
  const storeId = storeIdOf(params);
  const customer = await context.services.loyalty.requireCustomer(storeId, request.headers.get("authorization"));
  const body = await readJsonBody(request, customerActivationBody);
  return json(request, context.services.loyalty.activate(storeId, customer.loyalty_customer_id, body, request.headers.get(PARTNER_HEADER)));
});

/** GET of a program list (earning rules, redemption rules, VIP tiers): general, or tailored with a Bearer token. */
function programLoader(pick: "earningRules" | "redemptionRules" | "vipTiers") {
  return handle(async ({ request, params, context }: LoaderFunctionArgs) => {
    const storeId = storeIdOf(params);
    const customer = await context.services.loyalty.authenticate(storeId, request.headers.get("authorization"));
    const body = context.services.loyalty[pick](storeId, customer);
    return json(request, body, { cache: customer ? "private" : "public", scopes: programScopes(storeId) });
  });
}
export const earningRulesLoader = programLoader("earningRules");
export const redemptionRulesLoader = programLoader("redemptionRules");
export const vipTiersLoader = programLoader("vipTiers");

/** GET /loyalty/customer */
export const customerLoader = handle(async ({ request, params, context }: LoaderFunctionArgs) => {
  const storeId = storeIdOf(params);
  const customer = await context.services.loyalty.requireCustomer(storeId, request.headers.get("authorization"));
  return json(request, context.services.loyalty.customer(storeId, customer.loyalty_customer_id), { cache: "private" });
});

/** GET /loyalty/customer/transactions */
export const transactionsLoader = handle(async ({ request, params, context }: LoaderFunctionArgs) => {
  const storeId = storeIdOf(params);
  const customer = await context.services.loyalty.requireCustomer(storeId, request.headers.get("authorization"));
  const query = parseQuery(request, listPageQuery);
  return json(request, context.services.loyalty.transactions(storeId, customer.loyalty_customer_id, query), { cache: "private" });
});

/** POST /loyalty/customer/redemptions */
export const redemptionsAction = handle(async ({ request, params, context }: ActionFunctionArgs) => {
  const storeId = storeIdOf(params);
  const customer = await context.services.loyalty.requireCustomer(storeId, request.headers.get("authorization"));
  const body = await readJsonBody(request, redemptionBody);
  return json(request, context.services.loyalty.redeem(storeId, customer.loyalty_customer_id, body.redemptionRuleId), { status: 201 });
});

/** POST /enterprise/loyalty/earning_transactions (Basic auth; 201 new, 200 repeat of an order). */
export const orderEarningAction = handle(async ({ request, context }: ActionFunctionArgs) => {
  const storeId = context.services.apiKeys.authenticateBasic(request.headers.get("authorization"));
  const body = await readJsonBody(request, orderEarningBody);
  const result = context.services.loyalty.earnForOrder(storeId, body);
  return json(request, result.body, { status: result.created ? 201 : 200 });
});

/**
 * Operation declarations of the storefront loyalty API (docs/loyalty.md, Endpoints) and the
 * enterprise order-earning operation. Unauthenticated program reads are `Cache-Control: public` (shared
 * and cached); answers tailored to a customer token are `private, no-store`.
 */
import { z } from "zod";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import {
  earningRulesResponseSchema,
  legalPoliciesSchema,
  loginResponseSchema,
  loyaltyCustomerResponseSchema,
  orderEarningResponseSchema,
  redemptionResponseSchema,
  redemptionRulesResponseSchema,
  transactionsResponseSchema,
  vipTiersResponseSchema,
} from "../../server/contract/loyalty.responses.ts";
import { customerActivationBody, loginBody, orderEarningBody, PARTNER_HEADER, redemptionBody } from "../../server/contract/loyalty.ts";
import { storeIdParam } from "../../server/contract/params.ts";
import { listPageQuery } from "../../server/contract/storefront.ts";
import { contentScope } from "../../server/shared/content-scopes.ts";

const storeParams = z.object({ storeId: storeIdParam });
const loyalty = { api: "storefront", tags: ["Loyalty"], params: storeParams } as const;
const jsonBody = { read: "json", contentTypes: ["application/json"], maxBytes: 64 * 1024 } as const;

/**
 * The content scopes the general program reads (server/db/content-scopes.ts): the store and its loyalty
 * data. Used only on answers the service gave, so the store exists under exactly this ID.
 */
const programScopes = (storeId: string) => [contentScope.store(storeId), contentScope.loyalty(storeId)];

/** POST /loyalty/login */
export const login = defineOperation({
  ...loyalty,
  id: "loyaltyLogin",
  method: "POST",
  auth: "none",
  summary: "Exchange the storefront platform's customer token for a Chorus customer token",
  body: { schema: loginBody, ...jsonBody },
  responses: { 200: { description: "The customer token and the loyalty customer", schema: loginResponseSchema }, ...errorResponses(400, 401, 404, 413, 415) },
  before: async ({ params, context }) => {
    await context.services.loyalty.legalPolicies(params.storeId); // 404 for an unknown store before reading the body
  },
  handler: async ({ params, body, context }) => await context.services.loyalty.login(params.storeId, body.customerAccessToken),
});

/** GET /loyalty/legal_policies */
export const legalPolicies = defineOperation({
  ...loyalty,
  id: "getLoyaltyLegalPolicies",
  method: "GET",
  auth: "none",
  cache: "public",
  summary: "The program's legal policies (button text, sentence, version)",
  responses: { 200: { description: "The legal policies", schema: legalPoliciesSchema }, ...errorResponses(404) },
  handler: async ({ request, params, context }) =>
    reply(await context.services.loyalty.legalPolicies(params.storeId), { cache: request.headers.has("authorization") ? "private" : "public", scopes: programScopes(params.storeId) }),
});

/** POST /loyalty/customer_activation */
export const customerActivation = defineOperation({
  ...loyalty,
  id: "activateLoyaltyCustomer",
  method: "POST",
  auth: "customer",
  summary: "Enrol the signed-in customer in the program, accepting the current legal policies",
  headers: z.object({
    [PARTNER_HEADER]: z.string().max(200).optional().meta({ description: "The ID of the technology partner that enrolled the customer; when sent, it must equal `enrollmentChannel` (else 400)." }),
  }),
  body: { schema: customerActivationBody, ...jsonBody },
  responses: { 200: { description: "The enrolled loyalty customer", schema: loyaltyCustomerResponseSchema }, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
  handler: async ({ params, body, customer, context, request }) => await context.services.loyalty.activate(params.storeId, customer!.loyalty_customer_id, body, request.headers.get(PARTNER_HEADER)),
});

/** GET of a program list (earning rules, redemption rules, VIP tiers): general, or tailored with a Bearer token. */
function programList(pick: "earningRules" | "redemptionRules" | "vipTiers", id: string, summary: string, schema: z.ZodType) {
  return defineOperation({
    ...loyalty,
    id,
    method: "GET",
    auth: "customer-optional",
    cache: "public",
    summary,
    description: "Without a customer token: the general program (public, cached). With one: tailored to that customer (private).",
    responses: { 200: { description: "The list", schema }, ...errorResponses(401, 404) },
    handler: async ({ params, customer, context }) =>
      reply(await context.services.loyalty[pick](params.storeId, customer), { cache: customer ? "private" : "public", scopes: programScopes(params.storeId) }),
  });
}
export const earningRules = programList("earningRules", "listLoyaltyEarningRules", "The program's earning rules", earningRulesResponseSchema);
export const redemptionRules = programList("redemptionRules", "listLoyaltyRedemptionRules", "The program's redemption rules", redemptionRulesResponseSchema);
export const vipTiers = programList("vipTiers", "listLoyaltyVipTiers", "The program's VIP tiers", vipTiersResponseSchema);

/** GET /loyalty/customer */
export const customer = defineOperation({
  ...loyalty,
  id: "getLoyaltyCustomer",
  method: "GET",
  auth: "customer",
  cache: "private",
  summary: "The signed-in loyalty customer (status, points balance, VIP tier)",
  responses: { 200: { description: "The loyalty customer", schema: loyaltyCustomerResponseSchema }, ...errorResponses(401, 404) },
  handler: async ({ params, customer, context }) => await context.services.loyalty.customer(params.storeId, customer!.loyalty_customer_id),
});

/** GET /loyalty/customer/transactions */
export const transactions = defineOperation({
  ...loyalty,
  id: "listLoyaltyTransactions",
  method: "GET",
  auth: "customer",
  cache: "private",
  summary: "The signed-in customer's points transactions, newest first",
  query: listPageQuery,
  responses: { 200: { description: "A page of transactions", schema: transactionsResponseSchema }, ...errorResponses(400, 401, 404) },
  handler: async ({ params, query, customer, context }) => await context.services.loyalty.transactions(params.storeId, customer!.loyalty_customer_id, query),
});

/** POST /loyalty/customer/redemptions */
export const redemptions = defineOperation({
  ...loyalty,
  id: "redeemLoyaltyPoints",
  method: "POST",
  auth: "customer",
  summary: "Spend points on a redemption rule (an enrolled customer's coupon)",
  body: { schema: redemptionBody, ...jsonBody },
  description:
    'The coupon is created on the shop platform (Shopify discount, or the shop\'s answer to the signed `loyalty_reward.created` webhook) before it is returned. When the platform cannot create it, the answer is 503 with `Retry-After` and a `code` (`platform_not_connected`, `platform_token_missing`, `platform_unavailable`), and no points are taken (docs/loyalty.md "Rewards at checkout").',
  responses: { 201: { description: "The redemption and the customer's new balance", schema: redemptionResponseSchema }, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 503) },
  handler: async ({ params, body, customer, context }) => reply(await context.services.platformRewards.redeem(params.storeId, customer!.loyalty_customer_id, body.redemptionRuleId), { status: 201 }),
});

/** POST /enterprise/loyalty/earning_transactions (201 new, 200 repeat of an order). */
export const orderEarning = defineOperation({
  id: "createLoyaltyEarningTransaction",
  method: "POST",
  api: "enterprise",
  auth: "basic",
  tags: ["Loyalty"],
  summary: "Award points for an order (idempotent per orderId)",
  body: { schema: orderEarningBody, ...jsonBody },
  responses: {
    201: { description: "Points awarded", schema: orderEarningResponseSchema },
    200: { description: "This order was already awarded: the same transaction", schema: orderEarningResponseSchema },
    ...errorResponses(400, 401, 403, 404, 409, 413, 415),
  },
  handler: async ({ body, storeId, context }) => {
    const result = await context.services.loyalty.earnForOrder(storeId, body);
    return reply(result.body, { status: result.created ? 201 : 200 });
  },
});

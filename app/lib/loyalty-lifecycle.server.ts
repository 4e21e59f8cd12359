/**
 * Operation declarations of the loyalty lifecycle and the enterprise loyalty API (docs/loyalty.md "Birthdays",
 * "Enterprise loyalty API"): the shopper's birthday (storefront, customer token) and the merchant's customer
 * operations (enterprise, Basic auth: the store of the API key).
 */
import { z } from "zod";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import {
  adjustmentBody,
  adjustmentResponseSchema,
  birthdayBody,
  customerLookupQuery,
  customerOverviewResponseSchema,
  customerPatchBody,
  customerWithBirthdaySchema,
  enterpriseCustomerParams,
  enterpriseCustomerResponseSchema,
  enterpriseTransactionsQuery,
  enterpriseTransactionsResponseSchema,
  issuedRewardsResponseSchema,
} from "../../server/contract/loyalty-lifecycle.ts";
import { storeIdParam } from "../../server/contract/params.ts";

const jsonBody = { read: "json", contentTypes: ["application/json"], maxBytes: 16 * 1024 } as const;
const enterprise = { api: "enterprise", auth: "basic", tags: ["Loyalty"] } as const;

/** PATCH /v1/stores/{storeId}/loyalty/customer: the signed-in shopper sets their birthday. */
export const setBirthday = defineOperation({
  api: "storefront",
  tags: ["Loyalty"],
  params: z.object({ storeId: storeIdParam }),
  id: "setLoyaltyCustomerBirthday",
  method: "PATCH",
  auth: "customer",
  summary: "Set the signed-in customer's birthday (month and day; changeable once a year)",
  description:
    "The birthday earning rule awards its points once a year on that day, in the store's time zone. Setting the same day again changes nothing; another day is accepted a year after the last change (else 409 `birthday_change_too_soon`).",
  body: { schema: birthdayBody, ...jsonBody },
  responses: { 200: { description: "The customer and their birthday", schema: customerWithBirthdaySchema }, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
  handler: async ({ params, body, customer, context }) => await context.services.loyaltyLifecycle.setBirthday(params.storeId, customer!.loyalty_customer_id, body),
});

/** GET /v1/stores/{storeId}/loyalty/customer/overview: what the loyalty panel shows a signed-in member. */
export const customerOverview = defineOperation({
  api: "storefront",
  tags: ["Loyalty"],
  params: z.object({ storeId: storeIdParam }),
  id: "getLoyaltyCustomerOverview",
  method: "GET",
  auth: "customer",
  cache: "private",
  summary: "The signed-in customer's points (balance, pending, expiry), VIP tier progress, birthday and earning rule states",
  description:
    "For the loyalty panel: `nextVipTier.pointsNeeded` is the lifetime points still to earn for the next VIP tier; each enabled earning rule has a `frequency` and the customer's `state` (`done`: the sign-up points, or this year's birthday points, were awarded).",
  responses: { 200: { description: "The customer's overview", schema: customerOverviewResponseSchema }, ...errorResponses(401, 404) },
  handler: async ({ params, customer, context }) => ({ overview: await context.services.loyaltyLifecycle.overview(params.storeId, customer!.loyalty_customer_id) }),
});

/** GET /enterprise/loyalty/customers?email=|platformCustomerId= */
export const lookupCustomer = defineOperation({
  ...enterprise,
  id: "lookupLoyaltyCustomer",
  method: "GET",
  cache: "private",
  summary: "Look a loyalty customer up by e-mail or platform customer ID",
  query: customerLookupQuery,
  responses: { 200: { description: "The customer", schema: enterpriseCustomerResponseSchema }, ...errorResponses(400, 401, 404) },
  handler: async ({ storeId, query, context }) => await context.services.loyaltyEnterprise.lookup(storeId, query),
});

/** GET /enterprise/loyalty/customers/{loyaltyCustomerId} */
export const getCustomer = defineOperation({
  ...enterprise,
  id: "getEnterpriseLoyaltyCustomer",
  method: "GET",
  cache: "private",
  params: enterpriseCustomerParams,
  summary: "A loyalty customer: status, balance, pending and lifetime points, VIP tier",
  responses: { 200: { description: "The customer", schema: enterpriseCustomerResponseSchema }, ...errorResponses(401, 404) },
  handler: async ({ storeId, params, context }) => await context.services.loyaltyEnterprise.get(storeId, params.loyaltyCustomerId),
});

/** PATCH /enterprise/loyalty/customers/{loyaltyCustomerId} */
export const patchCustomer = defineOperation({
  ...enterprise,
  id: "updateEnterpriseLoyaltyCustomer",
  method: "PATCH",
  params: enterpriseCustomerParams,
  summary: "Block or unblock a loyalty customer, or set their minimum VIP tier",
  body: { schema: customerPatchBody, ...jsonBody },
  responses: { 200: { description: "The customer", schema: enterpriseCustomerResponseSchema }, ...errorResponses(400, 401, 404, 413, 415) },
  handler: async ({ storeId, params, body, context }) => await context.services.loyaltyEnterprise.patch(storeId, params.loyaltyCustomerId, body),
});

/** GET /enterprise/loyalty/customers/{loyaltyCustomerId}/transactions */
export const customerTransactions = defineOperation({
  ...enterprise,
  id: "listEnterpriseLoyaltyTransactions",
  method: "GET",
  cache: "private",
  params: enterpriseCustomerParams,
  summary: "A loyalty customer's transactions, newest first",
  query: enterpriseTransactionsQuery,
  responses: { 200: { description: "A page of transactions", schema: enterpriseTransactionsResponseSchema }, ...errorResponses(400, 401, 404) },
  handler: async ({ storeId, params, query, context }) => await context.services.loyaltyEnterprise.transactions(storeId, params.loyaltyCustomerId, query),
});

/** POST /enterprise/loyalty/customers/{loyaltyCustomerId}/adjustments */
export const adjustPoints = defineOperation({
  ...enterprise,
  id: "adjustLoyaltyPoints",
  method: "POST",
  params: enterpriseCustomerParams,
  summary: "Add or remove points with a reason (never below zero)",
  body: { schema: adjustmentBody, ...jsonBody },
  responses: { 201: { description: "The adjustment and the customer", schema: adjustmentResponseSchema }, ...errorResponses(400, 401, 404, 409, 413, 415) },
  handler: async ({ storeId, params, body, context }) => reply(await context.services.loyaltyEnterprise.adjust(storeId, params.loyaltyCustomerId, body), { status: 201 }),
});

/** GET /enterprise/loyalty/customers/{loyaltyCustomerId}/rewards */
export const issuedRewards = defineOperation({
  ...enterprise,
  id: "listLoyaltyIssuedRewards",
  method: "GET",
  cache: "private",
  params: enterpriseCustomerParams,
  summary: "The rewards (coupon codes) issued to a loyalty customer, with their platform state",
  responses: { 200: { description: "The rewards, newest first", schema: issuedRewardsResponseSchema }, ...errorResponses(401, 404) },
  handler: async ({ storeId, params, context }) => await context.services.loyaltyEnterprise.rewards(storeId, params.loyaltyCustomerId),
});

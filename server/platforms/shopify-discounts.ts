/**
 * Creates a loyalty reward's discount code in a Shopify shop with the Admin GraphQL API (docs/loyalty.md
 * "Rewards at checkout"; Shopify Admin API reference, `discountCodeBasicCreate`, `discountCodeFreeShippingCreate`,
 * `codeDiscountNodeByCode`), authenticated by the `X-Shopify-Access-Token` header of the shop's custom app
 * (`write_discounts`). Fixed-amount and percentage rewards are basic code discounts on all items, free shipping a
 * free-shipping code discount to all destinations; each has usage limit 1, once per customer, is limited to the
 * shopper's Shopify customer when known, and carries the rule's minimum order subtotal and expiry.
 * Every request goes through the outgoing-request guard (server/shared/outgoing-request.ts); the operator's
 * endpoint (SHOPIFY_ADMIN_API_URL, a stand-in in tests) may be on a loopback address.
 */
import { guardedFetch, isOutgoingRequestError, type Resolve } from "../shared/outgoing-request.ts";
import { adminApiUrl } from "../snippets/shopify-metafields.ts";

/** Longest time of one Admin API call (ms): a shopper waits for it. */
export const SHOPIFY_CALL_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 256 * 1024;

/** What the shop must create for one reward (amounts in the shop's currency units, percentage 1–100). */
export type RewardDiscount = {
  code: string;
  title: string;
  type: "fixed-amount-coupon" | "percentage-coupon" | "free-shipping";
  value: number;
  /** The shopper's Shopify customer ID (numeric, or a `gid://shopify/Customer/…`), when known. */
  platformCustomerId: string | null;
  minimumOrderAmount: number | null;
  startsAt: string;
  endsAt: string | null;
};

/** The shop to call: its domain, the Admin API token, and the operator's endpoint (SHOPIFY_ADMIN_API_URL). */
export type ShopifyAdmin = { shopDomain: string; accessToken: string; apiUrl?: string; allowLoopback: boolean; resolve?: Resolve; timeoutMs?: number };

/**
 * How a call ended. `definite: false` means Shopify may have created the discount (a timeout or a dropped
 * connection): the caller keeps the reward pending for the reconciler, which asks Shopify by code.
 */
export type DiscountOutcome = { ok: true; discountId: string } | { ok: false; definite: boolean; message: string };

export const DISCOUNT_CODE_BASIC_CREATE = `mutation ChorusLoyaltyReward($basicCodeDiscount: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $basicCodeDiscount) {
    codeDiscountNode { id }
    userErrors { field message code }
  }
}`;

export const DISCOUNT_CODE_FREE_SHIPPING_CREATE = `mutation ChorusLoyaltyFreeShipping($freeShippingCodeDiscount: DiscountCodeFreeShippingInput!) {
  discountCodeFreeShippingCreate(freeShippingCodeDiscount: $freeShippingCodeDiscount) {
    codeDiscountNode { id }
    userErrors { field message code }
  }
}`;

export const CODE_DISCOUNT_BY_CODE = `query ChorusLoyaltyRewardByCode($code: String!) {
  codeDiscountNodeByCode(code: $code) { id }
}`;

const money = (n: number) => n.toFixed(2);
const customerGid = (id: string) => (id.startsWith("gid://") ? id : `gid://shopify/Customer/${id}`);

/** The mutation and its variables for `d`. */
export function discountMutation(d: RewardDiscount): { query: string; variables: Record<string, unknown>; field: string } {
  const common = {
    title: d.title,
    code: d.code,
    startsAt: d.startsAt,
    endsAt: d.endsAt,
    usageLimit: 1,
    appliesOncePerCustomer: true,
    customerSelection: d.platformCustomerId ? { customers: { add: [customerGid(d.platformCustomerId)] } } : { all: true },
    minimumRequirement: d.minimumOrderAmount ? { subtotal: { greaterThanOrEqualToSubtotal: money(d.minimumOrderAmount) } } : null,
  };
  if (d.type === "free-shipping") {
    return { query: DISCOUNT_CODE_FREE_SHIPPING_CREATE, field: "discountCodeFreeShippingCreate", variables: { freeShippingCodeDiscount: { ...common, destination: { all: true } } } };
  }
  const value = d.type === "percentage-coupon" ? { percentage: Math.min(100, d.value) / 100 } : { discountAmount: { amount: money(d.value), appliesOnEachItem: false } };
  return { query: DISCOUNT_CODE_BASIC_CREATE, field: "discountCodeBasicCreate", variables: { basicCodeDiscount: { ...common, customerGets: { value, items: { all: true } } } } };
}

type GraphqlAnswer = {
  data?: Record<string, { codeDiscountNode?: { id?: string } | null; userErrors?: { field?: string[] | null; message: string }[]; id?: string } | null>;
  errors?: { message: string }[];
};

/** POST one GraphQL document. @returns the parsed answer, or a failure outcome. Never throws. */
async function call(shop: ShopifyAdmin, body: { query: string; variables: Record<string, unknown> }): Promise<GraphqlAnswer | Extract<DiscountOutcome, { ok: false }>> {
  try {
    const res = await guardedFetch(adminApiUrl({ shopDomain: shop.shopDomain, accessToken: shop.accessToken, apiUrl: shop.apiUrl }), {
      method: "POST",
      allowLoopback: shop.allowLoopback || shop.apiUrl !== undefined,
      resolve: shop.resolve,
      timeoutMs: shop.timeoutMs ?? SHOPIFY_CALL_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
      headers: { "content-type": "application/json", accept: "application/json", "x-shopify-access-token": shop.accessToken },
      body: JSON.stringify(body),
    });
    // 5xx may follow a created discount (Shopify answered late): not definite. 4xx (bad token, throttled) created nothing.
    if (res.status < 200 || res.status >= 300) return { ok: false, definite: res.status < 500, message: `Shopify answered ${res.status}` };
    return JSON.parse(res.body.toString("utf8")) as GraphqlAnswer;
  } catch (error) {
    if (isOutgoingRequestError(error)) return { ok: false, definite: error.kind === "refused" || error.kind === "unresolved", message: `Shopify could not be reached: ${error.message}` };
    return { ok: false, definite: false, message: `Shopify's answer could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Create the discount of `d` in the shop. Never throws. */
export async function createShopifyDiscount(shop: ShopifyAdmin, d: RewardDiscount): Promise<DiscountOutcome> {
  const m = discountMutation(d);
  const answer = await call(shop, m);
  if ("ok" in answer) return answer;
  if (answer.errors?.length) return { ok: false, definite: true, message: `Shopify: ${answer.errors.map((e) => e.message).join("; ")}` };
  const result = answer.data?.[m.field];
  const userErrors = result?.userErrors ?? [];
  if (userErrors.length) return { ok: false, definite: true, message: `Shopify: ${userErrors.map((e) => `${e.field?.join(".") ?? ""} ${e.message}`.trim()).join("; ")}` };
  const id = result?.codeDiscountNode?.id;
  return id ? { ok: true, discountId: id } : { ok: false, definite: true, message: "Shopify's answer has no discount" };
}

/**
 * Whether the shop has a discount with `code` (the reconciler's question after a crash or a timeout).
 * @returns the discount's ID, null when there is none, or undefined when Shopify could not answer.
 */
export async function findShopifyDiscount(shop: ShopifyAdmin, code: string): Promise<string | null | undefined> {
  const answer = await call(shop, { query: CODE_DISCOUNT_BY_CODE, variables: { code } });
  if ("ok" in answer || answer.errors?.length) return undefined;
  return answer.data?.codeDiscountNodeByCode?.id ?? null;
}

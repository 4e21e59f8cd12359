/**
 * Response schemas of the loyalty endpoints (login, legal policies, activation, program rules and tiers,
 * the customer, transactions, redemptions, and the merchant's order earnings). The one source of these
 * shapes: loyalty.ts re-exports the inferred types (services build them, widgets `import type` them) and
 * the OpenAPI document describes the bodies from these schemas (`.meta({ id })` names the component,
 * `description` is written for integrators).
 */
import { z } from "zod";
import { EARNING_RULE_TYPES, LOYALTY_CUSTOMER_STATUSES, REDEMPTION_RULE_TYPES, TRANSACTION_KINDS, TRANSACTION_TYPES } from "./loyalty.ts";

/** An ISO 8601 UTC date-time such as `2026-05-01T12:00:00.000Z`. */
const dateTime = (description: string) => z.iso.datetime().meta({ description: `${description} ISO 8601 date-time in UTC, e.g. \`2026-05-01T12:00:00.000Z\`.` });
const tailoredAvailability = (description: string) =>
  z
    .boolean()
    .optional()
    .meta({ description: `${description} Present only in answers tailored to a customer (requests with \`Authorization: Bearer <customerToken>\`); absent in the general program answer.` });

// ---- Customer ----

export const loyaltyCustomerStatusSchema = z.enum(LOYALTY_CUSTOMER_STATUSES).meta({
  id: "LoyaltyCustomerStatus",
  description:
    "`pending`: signed in but not enrolled; show the legal terms and activate to enrol (may see balance and history, cannot redeem). `enrolled`: a member; skip the enrolment steps. `blocked`: must not be given access to the program.",
});

export const loyaltyCustomerSchema = z
  .object({
    loyaltyCustomerId: z.string().meta({ description: "ID of the loyalty customer (also the `sub` of the customer token)." }),
    status: loyaltyCustomerStatusSchema,
    points: z.object({
      balance: z.int().min(0).meta({ description: "Current points balance (points, an integer): the sum of the customer's transactions." }),
    }),
    vipTierName: z.string().optional().meta({ description: "Name of the customer's current VIP tier; absent when not in a tier (customers who are not enrolled never are)." }),
    minimumVipTierName: z.string().optional().meta({ description: "Name of the lowest VIP tier the store guarantees this customer, whatever their points; absent when none." }),
  })
  .meta({ id: "LoyaltyCustomer", description: "A shopper in the store's loyalty program." });
export type LoyaltyCustomer = z.infer<typeof loyaltyCustomerSchema>;

export const loginResponseSchema = z
  .object({
    customerToken: z.string().meta({ description: "The loyalty customer token, a short-lived JWT. Send it as `Authorization: Bearer <customerToken>` to the customer endpoints." }),
    loyaltyCustomer: loyaltyCustomerSchema,
  })
  .meta({ id: "LoginResponse", description: "The customer token and the loyalty customer (created as `pending` on the first login). Continue the enrolment flow by `loyaltyCustomer.status`." });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const loyaltyCustomerResponseSchema = z
  .object({ loyaltyCustomer: loyaltyCustomerSchema })
  .meta({ id: "LoyaltyCustomerResponse", description: "The signed-in loyalty customer (after activation: enrolled, with sign-up points and the initial VIP tier)." });
export type LoyaltyCustomerResponse = z.infer<typeof loyaltyCustomerResponseSchema>;

// ---- Legal policies ----

export const legalPoliciesSchema = z
  .object({
    acceptTermsAndJoinProgramButtonText: z.string().meta({ description: "Text that must be used on the enrol button." }),
    policySentence: z.object({
      html: z.string().meta({ description: "Ready-made HTML sentence (sanitised by the service) to display above or below the enrol button." }),
      template: z.string().meta({ description: "The same sentence as a template: replace `{termsAndConditions}` and `{privacyPolicy}` with links to `termsAndConditionsUrl` and `privacyPolicyUrl`." }),
    }),
    privacyPolicyUrl: z.string().meta({ description: "Link to the privacy policy (an absolute http(s) URL, or a path on the store's site)." }),
    termsAndConditionsUrl: z.string().meta({ description: "Link to the program's terms and conditions (an absolute http(s) URL, or a path on the store's site)." }),
    version: z.string().meta({ description: "Version of the terms. Send it back as `legalPoliciesVersionAccepted` when activating the customer." }),
    merchantPolicies: z
      .array(
        z.object({
          title: z.string().meta({ description: "Title of the policy." }),
          url: z.string().meta({ description: "Link to the policy." }),
        }),
      )
      .optional()
      .meta({ description: "The store's own additional policies, when it has any." }),
  })
  .meta({ id: "LegalPolicies", description: "The program's legal texts, to show before a `pending` customer agrees to join." });
export type LegalPolicies = z.infer<typeof legalPoliciesSchema>;

// ---- Program: earning rules, redemption rules, VIP tiers ----

export const earningRuleSchema = z
  .object({
    earningRuleId: z.string().meta({ description: "ID of the earning rule." }),
    type: z.enum(EARNING_RULE_TYPES).meta({ description: "How points are earned: joining the program, spending money, writing a review, writing a review with a photo or video, or a birthday." }),
    name: z.string().meta({ description: "The rule's display name." }),
    points: z.int().min(0).meta({
      description:
        "Points awarded (an integer). In tailored answers the customer's VIP tier multiplier is applied (except to `sign-up`). `points-per-spend` rules award `pointsPerCurrencyUnit` instead.",
    }),
    pointsPerCurrencyUnit: z
      .number()
      .min(0)
      .optional()
      .meta({ description: "`points-per-spend` only: points per unit of the order's currency (e.g. per dollar); tailored answers apply the tier multiplier. Points for an order are rounded down." }),
    isAvailable: tailoredAvailability("Whether the customer can earn with this rule now."),
  })
  .meta({ id: "EarningRule", description: "A way to earn points." });
export type EarningRule = z.infer<typeof earningRuleSchema>;
export const earningRulesResponseSchema = z
  .object({ earningRules: z.array(earningRuleSchema) })
  .meta({ id: "EarningRulesResponse", description: "The program's enabled earning rules: general, or tailored to the customer of the Bearer token." });
export type EarningRulesResponse = z.infer<typeof earningRulesResponseSchema>;

export const redemptionRuleSchema = z
  .object({
    redemptionRuleId: z.string().meta({ description: "ID of the redemption rule; send it to redeem." }),
    type: z.enum(REDEMPTION_RULE_TYPES).meta({ description: "The kind of reward: a coupon for a fixed amount off, a percentage off, or free shipping." }),
    name: z.string().meta({ description: "The rule's display name." }),
    pointsCost: z.int().min(0).meta({ description: "Points the reward costs (an integer)." }),
    reward: z.object({
      type: z.literal("coupon"),
      description: z.string().meta({ description: "What the coupon gives, for display." }),
      value: z
        .number()
        .min(0)
        .meta({ description: "Amount of the reward: currency units off for `fixed-amount-coupon` (e.g. 5 = 5.00 off), percent off for `percentage-coupon` (e.g. 10 = 10 %), 0 for `free-shipping`." }),
    }),
    isAvailable: tailoredAvailability("Whether the customer can redeem this rule now (enrolled, in a tier the rule is open to, and with enough points)."),
  })
  .meta({ id: "RedemptionRule", description: "A way to redeem points for a reward." });
export type RedemptionRule = z.infer<typeof redemptionRuleSchema>;
export const redemptionRulesResponseSchema = z
  .object({ redemptionRules: z.array(redemptionRuleSchema) })
  .meta({ id: "RedemptionRulesResponse", description: "The program's enabled redemption rules: general, or tailored to the customer of the Bearer token." });
export type RedemptionRulesResponse = z.infer<typeof redemptionRulesResponseSchema>;

export const vipTierSchema = z
  .object({
    vipTierId: z.string().meta({ description: "ID of the VIP tier." }),
    name: z.string().meta({ description: "The tier's display name." }),
    pointsThreshold: z.int().min(0).meta({ description: "Lifetime earned points at which an enrolled customer reaches the tier." }),
    pointsMultiplier: z.number().min(0).meta({ description: "Factor applied to points earned in this tier, e.g. 1.25 = 25 % more points." }),
    perks: z.array(z.string()).optional().meta({ description: "The tier's perks, for display." }),
    isAvailable: tailoredAvailability("Whether the customer has reached this tier."),
  })
  .meta({ id: "VipTier", description: "A VIP tier of the program, ordered by `pointsThreshold`." });
export type VipTier = z.infer<typeof vipTierSchema>;
export const vipTiersResponseSchema = z
  .object({ vipTiers: z.array(vipTierSchema) })
  .meta({ id: "VipTiersResponse", description: "The program's VIP tiers, lowest first: general, or tailored to the customer of the Bearer token." });
export type VipTiersResponse = z.infer<typeof vipTiersResponseSchema>;

// ---- Transactions, redemptions, order earnings ----

export const loyaltyTransactionSchema = z
  .object({
    transactionId: z.string().meta({ description: "ID of the transaction." }),
    type: z.enum(TRANSACTION_TYPES).meta({
      description:
        "`earning` (points awarded), `redemption` (points spent on a reward), `adjustment` (changed by the store, a cancelled order or a refund) or `expiry` (points expired after months without activity).",
    }),
    points: z.int().meta({ description: "Points added or removed (a signed integer): positive for earnings, negative for redemptions; adjustments may be either." }),
    balanceAfter: z.int().min(0).meta({ description: "The customer's points balance after this transaction." }),
    description: z
      .string()
      .meta({ description: "What the transaction was for, in English, for display (kept for compatibility: a storefront in another language writes its text from `kind` and `details`)." }),
    kind: z.enum(TRANSACTION_KINDS).meta({
      description:
        "What the transaction was for: `sign-up` (joined the program), `order` (an order's points, confirmed after the return window), `review`, `birthday`, `referral` (a referred friend's first order), `redemption` (a reward), `expiry` (points expired after months without activity), `order-cancelled` and `order-refunded` (an order's points reversed), `referral-reversed` (a referral reward reversed: the friend's order was cancelled or refunded), `adjustment` (changed by the store: `description` is the store's reason, as written).",
    }),
    details: z
      .object({
        order: z.string().optional().meta({ description: "The order's label (`#1001`): `order`, `order-cancelled`, `order-refunded`, `referral-reversed`." }),
        product: z.string().optional().meta({ description: "The product reviewed, as the store names it (`review`; absent for a store review)." }),
        reward: z.string().optional().meta({ description: "The redemption rule's name, as the store wrote it (`redemption`)." }),
        months: z.int().optional().meta({ description: "The store's months without activity after which points expire (`expiry`)." }),
        pointsDue: z.int().optional().meta({
          description: "`order-cancelled`, `order-refunded`: the points the order still counted when fewer were reversed (the rest were already redeemed); absent when all were.",
        }),
      })
      .optional()
      .meta({ description: "The values the text of `kind` needs. Absent for transactions written before kinds had details (use `description`)." }),
    earningRuleId: z.string().optional().meta({ description: "The earning rule that awarded the points (earnings only)." }),
    redemptionRuleId: z.string().optional().meta({ description: "The redemption rule redeemed (redemptions only)." }),
    dateCreated: dateTime("When the transaction happened."),
  })
  .meta({ id: "LoyaltyTransaction", description: "One change of a customer's points. The ledger is append-only: the balance always equals the sum of the customer's transactions." });
export type LoyaltyTransaction = z.infer<typeof loyaltyTransactionSchema>;

export const transactionsResponseSchema = z
  .object({
    transactions: z.array(loyaltyTransactionSchema).meta({ description: "One page of the customer's transactions, most recent first (at most `limit`)." }),
    nextUrl: z.string().optional().meta({
      description: "Link to the next page, relative to the API root `/v1` (`/stores/{storeId}/loyalty/…`; it carries `limit` and the `lastEvaluated` cursor). Present only when more results exist.",
    }),
  })
  .meta({ id: "TransactionsResponse", description: "The signed-in customer's points history." });
export type TransactionsResponse = z.infer<typeof transactionsResponseSchema>;

export const redemptionResponseSchema = z
  .object({
    redemption: z.object({
      transactionId: z.string().meta({ description: "ID of the redemption transaction (it appears in the customer's transactions)." }),
      reward: z.object({
        type: z.literal("coupon"),
        code: z.string().meta({ description: "The coupon code to apply at checkout." }),
        description: z.string().meta({ description: "What the coupon gives, for display." }),
        value: z.number().min(0).meta({ description: "Amount of the reward, as in the redemption rule: currency units off, percent off, or 0 for free shipping." }),
        platform: z.enum(["shopify", "woocommerce", "webhook", "demo"]).optional().meta({
          description:
            "Where the code was created before it was shown: `shopify` (Admin API), `woocommerce` (a coupon through the shop's REST API), `webhook` (the shop answered the signed `loyalty_reward.created` webhook) or `demo` (the demo store's built-in demo platform: not valid at a real checkout).",
        }),
        discountUrl: z.string().optional().meta({ description: "Shopify: the shop's `/discount/{code}` link, which applies the code to the cart." }),
        expiresAt: z.string().optional().meta({ description: "When the code stops working (ISO 8601), when the rule sets an expiry." }),
      }),
    }),
  })
  .meta({ id: "RedemptionResponse", description: "The points were redeemed (201): the coupon the customer receives." });
export type RedemptionResponse = z.infer<typeof redemptionResponseSchema>;

export const orderEarningResponseSchema = z
  .object({
    transaction: loyaltyTransactionSchema.meta({ description: "The earning for the order (for a repeated order ID: the first one, nothing awarded twice)." }),
    loyaltyCustomer: loyaltyCustomerSchema,
  })
  .meta({ id: "OrderEarningResponse", description: "Points awarded for an order (201), or the earlier award when the order was already recorded (200)." });
export type OrderEarningResponse = z.infer<typeof orderEarningResponseSchema>;

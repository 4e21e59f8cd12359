/**
 * Contract of the loyalty lifecycle and the enterprise loyalty API (docs/loyalty.md "Birthdays", "Expiry",
 * "Pending points and refunds", "Enterprise loyalty API"): request bodies and queries (zod) and response schemas.
 */
import { z } from "zod";
import { isTimeZone } from "../review-requests/settings.ts";
import { listPageQuery } from "./storefront.ts";
import { loyaltyCustomerSchema, loyaltyTransactionSchema } from "./loyalty.responses.ts";
import { LOYALTY_CUSTOMER_STATUSES } from "./loyalty.ts";

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** PATCH /loyalty/customer (storefront): the shopper's birthday, month and day (no year). */
export const birthdayBody = z
  .object({
    birthday: z
      .object(
        {
          month: z.int({ error: "birthday.month must be a whole number from 1 to 12" }).min(1, "birthday.month must be 1 to 12").max(12, "birthday.month must be 1 to 12"),
          day: z.int({ error: "birthday.day must be a whole number from 1 to 31" }).min(1, "birthday.day must be 1 to 31").max(31, "birthday.day must be 1 to 31"),
        },
        { error: "birthday is required: { month, day }" },
      )
      .refine((b) => b.day <= DAYS_IN_MONTH[b.month - 1]!, "birthday.day does not exist in that month"),
  })
  .strict();
export type BirthdayBody = z.output<typeof birthdayBody>;

export const birthdaySchema = z
  .object({
    month: z.int().min(1).max(12),
    day: z.int().min(1).max(31),
    changeableFrom: z.string().meta({ description: "When the birthday may be changed again (ISO 8601 UTC): a year after it was set." }),
  })
  .meta({ id: "LoyaltyBirthday", description: "The shopper's birthday (month and day). The birthday earning rule awards its points on that day in the store's time zone." });

export const customerWithBirthdaySchema = z
  .object({
    loyaltyCustomer: loyaltyCustomerSchema,
    birthday: birthdaySchema,
  })
  .meta({ id: "LoyaltyCustomerBirthdayResponse" });

/** How often an earning rule pays: once (sign-up), per order, per review, once a year (birthday). */
export const EARNING_FREQUENCIES = ["once", "per-order", "per-review", "yearly"] as const;
/** Where the customer stands with an earning rule: `done` (already earned: sign-up, or this year's birthday), `available`, `unavailable` (blocked, or a higher VIP tier needed). */
export const EARNING_RULE_STATES = ["done", "available", "unavailable"] as const;

/** GET /loyalty/customer/overview (storefront): what the loyalty panel shows a signed-in member above their history. */
export const customerOverviewSchema = z
  .object({
    points: z.object({
      balance: z.int().min(0).meta({ description: "Points the customer can spend." }),
      pending: z.int().min(0).meta({ description: "Order points waiting for the end of the store's return window (not spendable yet)." }),
      lifetime: z.int().min(0).meta({ description: "Lifetime earned points: what decides the VIP tier." }),
    }),
    pointsExpireAt: z.string().nullable().meta({ description: "When the balance expires without new activity (ISO 8601 UTC), or null (the store sets no expiry, or no points)." }),
    vipTier: z.object({ vipTierId: z.string(), name: z.string(), pointsThreshold: z.int() }).nullable().meta({ description: "The customer's current VIP tier, or null." }),
    nextVipTier: z
      .object({
        vipTierId: z.string(),
        name: z.string(),
        pointsThreshold: z.int(),
        pointsNeeded: z.int().min(1).meta({ description: "Lifetime points still to earn to reach it." }),
      })
      .nullable()
      .meta({ description: "The next VIP tier above the current one, or null (highest tier, or no tiers)." }),
    birthday: birthdaySchema.nullable().meta({ description: "The customer's birthday and when it may be changed again, or null (not given yet: it can be set now)." }),
    earningRules: z
      .array(
        z.object({
          earningRuleId: z.string(),
          frequency: z.enum(EARNING_FREQUENCIES),
          state: z.enum(EARNING_RULE_STATES),
        }),
      )
      .meta({ description: "The customer's state for each enabled earning rule (same IDs as `GET /loyalty/earning_rules`)." }),
  })
  .meta({ id: "LoyaltyCustomerOverview", description: "The signed-in customer's points (balance, pending, lifetime, expiry), VIP tier progress, birthday and earning rule states." });
export type CustomerOverview = z.output<typeof customerOverviewSchema>;
export const customerOverviewResponseSchema = z.object({ overview: customerOverviewSchema }).meta({ id: "LoyaltyCustomerOverviewResponse" });

/** The lifecycle settings of a program (admin page and `services.loyaltyLifecycle.updateSettings`). */
export const lifecycleSettingsSchema = z.object({
  timeZone: z
    .string()
    .refine(isTimeZone, "timeZone must be an IANA time zone such as Europe/Paris or UTC")
    .meta({ description: "The store's IANA time zone: birthdays are awarded on that local day." }),
  pointsExpiryMonths: z
    .int()
    .min(6, "pointsExpiryMonths must be 6 to 36, or null (off)")
    .max(36, "pointsExpiryMonths must be 6 to 36, or null (off)")
    .nullable()
    .meta({ description: "Points expire after this many months without activity (null: never)." }),
  returnWindowDays: z
    .int()
    .min(0, "returnWindowDays must be 0 to 60")
    .max(60, "returnWindowDays must be 0 to 60")
    .meta({ description: "Order points stay pending this many days (0: confirmed at once)." }),
  tierRequalification: z.boolean().meta({ description: "Whether a customer whose lifetime points fall (cancellation, refund) loses the VIP tier they no longer reach." }),
});
export type LifecycleSettings = z.output<typeof lifecycleSettingsSchema>;
export const lifecycleSettingsPatch = lifecycleSettingsSchema.partial().strict();
export type LifecycleSettingsPatch = z.output<typeof lifecycleSettingsPatch>;

// ---------- enterprise loyalty API ----------

export const enterpriseCustomerParams = z.object({ loyaltyCustomerId: z.string().min(1).max(200).meta({ description: "The loyalty customer's ID." }) });

/** GET /enterprise/loyalty/customers: exactly one of `email` and `platformCustomerId`. */
export const customerLookupQuery = z
  .object({
    email: z.string().trim().toLowerCase().pipe(z.email("email must be an e-mail address")).optional().meta({ description: "The customer's e-mail address (case-insensitive)." }),
    platformCustomerId: z.string().min(1).max(200).optional().meta({ description: "The customer's ID on the shop platform." }),
  })
  .refine((q) => (q.email === undefined) !== (q.platformCustomerId === undefined), "Give exactly one of email and platformCustomerId");

/** A page of transactions: `limit` 1–25 (default 25), `lastEvaluated` the cursor of the previous page. */
export const enterpriseTransactionsQuery = listPageQuery;

export const adjustmentBody = z
  .object({
    points: z
      .int({ error: "points must be a whole number (signed)" })
      .refine((n) => n !== 0, "points must not be 0")
      .refine((n) => Math.abs(n) <= 10_000_000, "points must be at most 10000000 either way")
      .meta({ description: "Points to add (positive) or remove (negative)." }),
    reason: z
      .string({ error: "reason is required" })
      .trim()
      .min(1, "reason must not be empty")
      .max(500, "reason is at most 500 characters")
      .meta({ description: "Why: shown to the customer as the transaction's description." }),
  })
  .strict();
export type AdjustmentBody = z.output<typeof adjustmentBody>;

export const customerPatchBody = z
  .object({
    blocked: z.boolean().optional().meta({ description: "true blocks the customer; false unblocks (enrolled again if they had enrolled, else pending)." }),
    minimumVipTierId: z.string().min(1).max(200).nullable().optional().meta({ description: "The lowest VIP tier the customer keeps whatever their points (null clears)." }),
  })
  .strict()
  .refine((b) => b.blocked !== undefined || b.minimumVipTierId !== undefined, "Give blocked and/or minimumVipTierId");
export type CustomerPatchBody = z.output<typeof customerPatchBody>;

export const enterpriseCustomerSchema = z
  .object({
    loyaltyCustomerId: z.string(),
    platformCustomerId: z.string().meta({ description: "The customer's ID on the shop platform." }),
    email: z.string().nullable(),
    status: z.enum(LOYALTY_CUSTOMER_STATUSES),
    points: z.object({
      balance: z.int().meta({ description: "Points the customer can spend." }),
      pending: z.int().meta({ description: "Order points waiting for the end of the return window." }),
      lifetime: z.int().meta({ description: "Lifetime earned points: what decides the VIP tier (lowered by cancellations and refunds)." }),
    }),
    vipTier: z.object({ vipTierId: z.string(), name: z.string() }).nullable(),
    minimumVipTier: z.object({ vipTierId: z.string(), name: z.string() }).nullable(),
    birthday: z.object({ month: z.int(), day: z.int() }).nullable(),
    pointsExpireAt: z.string().nullable().meta({ description: "When the balance expires without new activity (ISO 8601 UTC), or null (no expiry, or no points)." }),
    dateEnrolled: z.string().nullable(),
    dateCreated: z.string(),
  })
  .meta({ id: "EnterpriseLoyaltyCustomer", description: "A loyalty customer as the merchant sees them." });
export type EnterpriseCustomer = z.output<typeof enterpriseCustomerSchema>;
export const enterpriseCustomerResponseSchema = z.object({ loyaltyCustomer: enterpriseCustomerSchema }).meta({ id: "EnterpriseLoyaltyCustomerResponse" });

export const enterpriseTransactionsResponseSchema = z
  .object({
    transactions: z.array(loyaltyTransactionSchema),
    lastEvaluated: z.string().optional().meta({ description: "Cursor of the next page (send as `lastEvaluated`); absent on the last page." }),
  })
  .meta({ id: "EnterpriseLoyaltyTransactions" });

export const adjustmentResponseSchema = z.object({ transaction: loyaltyTransactionSchema, loyaltyCustomer: enterpriseCustomerSchema }).meta({ id: "EnterpriseLoyaltyAdjustment" });

/**
 * Where an issued reward stands on the shop platform (as its `loyalty_rewards` row holds it, docs/loyalty.md "Never losing
 * points"): `created` at once by the redemption, `pending` (the platform did not answer yet; its points are held),
 * `failed` (the platform refused or has no such code: nothing taken), `reconciled` (confirmed later by the reconciler),
 * `chorus-only` (issued before rewards were created on the platform: a code Chorus alone knows).
 */
export const REWARD_PLATFORM_STATES = ["created", "pending", "failed", "reconciled", "chorus-only"] as const;
export const issuedRewardSchema = z
  .object({
    transactionId: z.string().nullable().meta({ description: "The redemption transaction that took the points; null while `pending` and when `failed` (nothing taken)." }),
    redemptionRuleId: z.string().nullable(),
    code: z.string(),
    description: z.string(),
    pointsCost: z.int().meta({ description: "Points the reward costs (taken once it is `created` or `reconciled`)." }),
    platform: z
      .enum(["shopify", "woocommerce", "webhook", "demo"])
      .nullable()
      .meta({ description: "Where the code is created: Shopify's Admin API, a WooCommerce coupon, the shop's `loyalty_reward.created` webhook, the demo platform; null for `chorus-only`." }),
    platformState: z.enum(REWARD_PLATFORM_STATES).meta({
      description:
        "`created`: created on the platform by the redemption; `pending`: the platform has not answered yet (the points are held, the reconciler asks again); `failed`: refused or unknown to the platform, nothing taken; `reconciled`: confirmed later by the reconciler; `chorus-only`: issued by Chorus before codes were created on the platform.",
    }),
    platformError: z.string().nullable().meta({ description: "The platform's last error for a `pending` or `failed` reward, else null." }),
    dateCreated: z.string(),
  })
  .meta({ id: "EnterpriseIssuedReward" });
export const issuedRewardsResponseSchema = z.object({ rewards: z.array(issuedRewardSchema) }).meta({ id: "EnterpriseIssuedRewards" });
export type IssuedReward = z.output<typeof issuedRewardSchema>;

/**
 * Loyalty program contract (docs/loyalty.md, Endpoints; also its Statuses and rules, Enrolment flow and Legal policies): zod schemas for every
 * request body of every loyalty endpoint; the responses' schemas and types are in loyalty.responses.ts. One source:
 * routes parse with these schemas, widgets `import type` the response types from loyalty.responses.ts.
 */
import { z } from "zod";
import { safeHref } from "./safe-href.ts";

export const LOYALTY_CUSTOMER_STATUSES = ["pending", "enrolled", "blocked"] as const;
export type LoyaltyCustomerStatus = (typeof LOYALTY_CUSTOMER_STATUSES)[number];

export const EARNING_RULE_TYPES = ["sign-up", "points-per-spend", "review", "review-with-media", "birthday"] as const;
export type EarningRuleType = (typeof EARNING_RULE_TYPES)[number];

export const REDEMPTION_RULE_TYPES = ["fixed-amount-coupon", "percentage-coupon", "free-shipping"] as const;
export type RedemptionRuleType = (typeof REDEMPTION_RULE_TYPES)[number];

export const TRANSACTION_TYPES = ["earning", "redemption", "adjustment", "expiry"] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/**
 * What a transaction was for, as a stable machine word (docs/loyalty.md "Points history"): the storefront panel writes
 * each history line from it in the shopper's language.
 */
export const TRANSACTION_KINDS = ["sign-up", "order", "review", "birthday", "referral", "redemption", "expiry", "order-cancelled", "order-refunded", "referral-reversed", "adjustment"] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** The values a transaction's text needs (stored as JSON in `loyalty_transactions.details`), by kind. */
export type TransactionDetails = { order?: string; product?: string; reward?: string; months?: number; pointsDue?: number };

/** The technology partner's header (docs/loyalty.md, Enrolment flow). */
export const PARTNER_HEADER = "service-partner-id";

// ---------- request bodies ----------

/** POST /loyalty/login (docs/loyalty.md, Endpoints). */
export const loginBody = z.object({
  customerAccessToken: z
    .string({ error: "customerAccessToken is required: the storefront platform's user token" })
    .min(1, "customerAccessToken must not be empty")
    .max(8192, "customerAccessToken is too long (at most 8192 characters)"),
});
export type LoginBody = z.output<typeof loginBody>;

/** POST /loyalty/customer_activation (docs/loyalty.md, Enrolment flow). */
export const customerActivationBody = z.object({
  enrollmentChannel: z
    .string({ error: "enrollmentChannel is required: the partner ID (a string)" })
    .min(1, "enrollmentChannel must not be empty")
    .max(200, "enrollmentChannel is too long (at most 200 characters)"),
  legalPoliciesVersionAccepted: z
    .string({ error: "legalPoliciesVersionAccepted is required: the version from GET /loyalty/legal_policies" })
    .min(1, "legalPoliciesVersionAccepted must not be empty")
    .max(200, "legalPoliciesVersionAccepted is too long (at most 200 characters)"),
});
export type CustomerActivationBody = z.output<typeof customerActivationBody>;

/** POST /loyalty/customer/redemptions (docs/loyalty.md, Endpoints). */
export const redemptionBody = z.object({
  redemptionRuleId: z
    .string({ error: "redemptionRuleId is required (a string from GET /loyalty/redemption_rules)" })
    .min(1, "redemptionRuleId must not be empty")
    .max(100, "redemptionRuleId is too long"),
});
export type RedemptionBody = z.output<typeof redemptionBody>;

/**
 * POST /enterprise/loyalty/earning_transactions: points for an order (idempotent per `orderId`).
 * `customer` names the loyalty customer by platform customer ID or by e-mail (at least one).
 * `amount` is the order total in currency units (e.g. 59.90).
 */
export const orderEarningBody = z.object({
  customer: z
    .object(
      {
        platformCustomerId: z.string().min(1, "customer.platformCustomerId must not be empty").max(200).optional(),
        email: z.email({ error: "customer.email must be an e-mail address" }).max(320).optional(),
      },
      { error: "customer is required: { platformCustomerId } or { email }" },
    )
    .refine((c) => c.platformCustomerId !== undefined || c.email !== undefined, { message: "customer needs platformCustomerId or email" }),
  orderId: z.string({ error: "orderId is required (a string)" }).min(1, "orderId must not be empty").max(200, "orderId is too long (at most 200 characters)"),
  amount: z
    .number({ error: "amount is required: the order total in currency units (a number)" })
    .finite("amount must be a finite number")
    .min(0, "amount must be 0 or more")
    .max(1_000_000_000, "amount must be at most 1000000000"),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "currency must be a 3-letter ISO 4217 code")
    .optional(),
});
export type OrderEarningBody = z.output<typeof orderEarningBody>;

const SITE_BASE = "https://site.invalid/";

/**
 * Whether `path` is a path on the page's own site ("/terms", "/pages/privacy?x=1", "/%5Cx"): it starts
 * with "/", has no control characters (tab, CR, LF, …), and a WHATWG URL parse against a base keeps the
 * base's origin. Browsers read `\` as `/` and drop tabs and newlines, so `/\evil.example`, `/\t/evil.example`
 * and `//evil.example` resolve off-site and are refused (issue #19 finding 10). The one link rule:
 * `safeHref` (safe-href.ts), for a reference that starts with "/".
 */
export function isSitePath(path: string): boolean {
  return path.startsWith("/") && safeHref(path, SITE_BASE) !== null;
}

const httpUrl = z.url({ protocol: /^https?$/ });
/** A legal-policy link: an absolute http(s) URL, or a path on the store's site (`isSitePath`); one message names the field. */
const policyUrl = (field: string) =>
  z
    .string({ error: `${field} is required (a string)` })
    .refine((v) => httpUrl.safeParse(v).success || isSitePath(v), `${field} must be an http(s) URL or a path on the store's site starting with a single /`);

/** Merchant-side update of the legal policies (service method; admin forms use it). */
export const legalPoliciesInput = z.object({
  acceptTermsAndJoinProgramButtonText: z.string().trim().min(1, "acceptTermsAndJoinProgramButtonText must not be empty").max(120),
  policySentenceHtml: z.string().max(4000, "policySentence.html is too long (at most 4000 characters)"),
  policySentenceTemplate: z
    .string()
    .max(2000)
    .refine((t) => t.includes("{termsAndConditions}") && t.includes("{privacyPolicy}"), {
      message: "policySentence.template must contain {termsAndConditions} and {privacyPolicy}",
    }),
  privacyPolicyUrl: policyUrl("privacyPolicyUrl"),
  termsAndConditionsUrl: policyUrl("termsAndConditionsUrl"),
  version: z.string().trim().min(1, "version must not be empty").max(200),
  merchantPolicies: z
    .array(z.object({ title: z.string().max(200), url: z.string().max(2000) }))
    .max(20)
    .optional(),
});
export type LegalPoliciesInput = z.input<typeof legalPoliciesInput>;

/**
 * Loyalty rows in the API's shapes (pure): a ledger transaction and a loyalty customer as the storefront
 * sees them (docs/loyalty.md, Legal policies), and a customer as the merchant admin lists them (issue 7 item 5).
 */
import type { TransactionDetails, TransactionKind } from "../contract/loyalty.ts";
import type { LoyaltyCustomer, LoyaltyTransaction } from "../contract/loyalty.responses.ts";
import { isoFromMs as iso } from "../shared/iso-date.ts";
import type { CustomerRow, TransactionRow, VipTierRow } from "./loyalty.repo.ts";
import { tierById } from "./tiers.ts";

/** A loyalty customer as the merchant admin lists them (issue 7 item 5). */
export type AdminLoyaltyCustomer = {
  loyaltyCustomerId: string;
  platformCustomerId: string;
  email: string | null;
  status: CustomerRow["status"];
  balance: number;
  lifetimePoints: number;
  vipTierName: string | null;
  dateEnrolled: string | null;
  dateCreated: string;
};

/** Award-key prefixes (server/loyalty/ledger.ts `appendEarning`) and the kind each marks. */
const KIND_BY_AWARD_KEY: readonly [prefix: string, kind: TransactionKind][] = [
  ["sign-up", "sign-up"],
  ["review:", "review"],
  ["birthday:", "birthday"],
  ["referral:", "referral"],
  ["referral-reversed:", "referral-reversed"],
  ["order-cancelled:", "order-cancelled"],
  ["order-refund:", "order-refunded"],
];

/**
 * What a ledger row was for (docs/loyalty.md "Points history"), from what every writer records: its type, its award
 * key (unique per customer: `sign-up`, `review:<id>`, `birthday:<year>`, ...) and its order. Pure; rows written before
 * migration 109 get their kind too. A row no rule explains is an `adjustment` (its description is then its text).
 */
export function kindOf(r: Pick<TransactionRow, "type" | "award_key" | "order_id">): TransactionKind {
  if (r.type === "redemption") return "redemption";
  if (r.type === "expiry") return "expiry";
  const key = r.award_key;
  const byKey = key === null ? undefined : KIND_BY_AWARD_KEY.find(([prefix]) => (prefix.endsWith(":") ? key.startsWith(prefix) : key === prefix));
  if (byKey) return byKey[1];
  return r.type === "earning" && r.order_id !== null ? "order" : "adjustment";
}

/** The row's stored details (JSON), undefined when none were stored or they do not parse. */
function detailsOf(r: TransactionRow): TransactionDetails | undefined {
  if (!r.details) return undefined;
  try {
    return JSON.parse(r.details) as TransactionDetails;
  } catch {
    return undefined;
  }
}

/** A transaction row as the API shows it: its kind and details, rule IDs only when set, the date in ISO 8601 UTC. */
export function toTransaction(r: TransactionRow): LoyaltyTransaction {
  const details = detailsOf(r);
  return {
    transactionId: r.transaction_id,
    type: r.type,
    points: r.points,
    balanceAfter: r.balance_after,
    description: r.description,
    kind: kindOf(r),
    ...(details ? { details } : {}),
    ...(r.earning_rule_id ? { earningRuleId: r.earning_rule_id } : {}),
    ...(r.redemption_rule_id ? { redemptionRuleId: r.redemption_rule_id } : {}),
    dateCreated: iso(r.created_ms),
  };
}

/** A customer as the API shows them, with the names of their tier and minimum tier among the store's `tiers`. */
export function toCustomer(c: CustomerRow, tiers: VipTierRow[]): LoyaltyCustomer {
  const tier = tierById(tiers, c.vip_tier_id);
  const minimum = tierById(tiers, c.minimum_vip_tier_id);
  return {
    loyaltyCustomerId: c.loyalty_customer_id,
    status: c.status,
    points: { balance: c.balance },
    ...(tier ? { vipTierName: tier.name } : {}),
    ...(minimum ? { minimumVipTierName: minimum.name } : {}),
  };
}

/** A customer as the merchant admin lists them (nulls where the storefront shape omits a field). */
export function toAdminCustomer(c: CustomerRow, tiers: VipTierRow[]): AdminLoyaltyCustomer {
  return {
    loyaltyCustomerId: c.loyalty_customer_id,
    platformCustomerId: c.platform_customer_id,
    email: c.email,
    status: c.status,
    balance: c.balance,
    lifetimePoints: c.lifetime_points,
    vipTierName: tierById(tiers, c.vip_tier_id)?.name ?? null,
    dateEnrolled: c.enrolled_ms ? iso(c.enrolled_ms) : null,
    dateCreated: iso(c.created_ms),
  };
}

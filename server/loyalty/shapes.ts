/**
 * Loyalty rows in the API's shapes (pure): a ledger transaction and a loyalty customer as the storefront
 * sees them (docs/loyalty.md, Legal policies), and a customer as the merchant admin lists them (issue 7 item 5).
 */
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

/** A transaction row as the API shows it: rule IDs only when set, the date in ISO 8601 UTC. */
export function toTransaction(r: TransactionRow): LoyaltyTransaction {
  return {
    transactionId: r.transaction_id,
    type: r.type,
    points: r.points,
    balanceAfter: r.balance_after,
    description: r.description,
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

/**
 * What the storefront reads of the loyalty program (docs/loyalty.md, Legal policies; docs/loyalty.md, Enrolment flow): the signed-in customer,
 * their transactions (keyset-paged), and the earning rules, redemption rules and VIP tiers, general or
 * tailored to a customer (multiplier applied, `isAvailable`). Customer reads first catch up review earnings.
 */
import type { EarningRule, EarningRulesResponse, LoyaltyCustomer, RedemptionRule, RedemptionRulesResponse, TransactionsResponse, VipTier, VipTiersResponse } from "../contract/loyalty.responses.ts";
import { keysetPage } from "../shared/keyset-pager.ts";
import type { CustomerRow, EarningRuleRow, LoyaltyRepo, ProgramRow, RedemptionRuleRow, TransactionRow } from "./loyalty.repo.ts";
import { toCustomer, toTransaction } from "./shapes.ts";
import { multiplierOf, tierAllows, tierById } from "./tiers.ts";

/**
 * Create the storefront-reads part of the loyalty service. `secret` signs transaction cursors;
 * `requireProgram` answers 404 for a store without a program; `awardReviewEarnings` is the ledger's.
 */
export function loyaltyStorefrontReads(deps: {
  repo: LoyaltyRepo;
  secret: string;
  requireProgram: (storeId: string) => Promise<ProgramRow>;
  awardReviewEarnings: (storeId: string, loyaltyCustomerId?: string) => Promise<number>;
}) {
  const { repo, secret, requireProgram, awardReviewEarnings } = deps;

  return {
    /** GET /loyalty/customer (review earnings caught up first). */
    async customer(storeId: string, customerId: string): Promise<{ loyaltyCustomer: LoyaltyCustomer }> {
      await awardReviewEarnings(storeId, customerId);
      return { loyaltyCustomer: toCustomer((await repo.getCustomer(storeId, customerId))!, await repo.vipTiers(storeId)) };
    },

    /** GET /loyalty/customer/transactions: newest first, keyset-paged. @throws 400 bad cursor. */
    async transactions(storeId: string, customerId: string, query: { limit: number; lastEvaluated?: string }): Promise<TransactionsResponse> {
      await awardReviewEarnings(storeId, customerId);
      const { rows, next } = await keysetPage<TransactionRow, [number]>({
        secret,
        context: `loyalty-transactions|${storeId}|${customerId}`,
        cursor: query.lastEvaluated,
        shape: ["number"],
        limit: query.limit,
        // Newest first: the page after a cursor holds the transactions before its `seq`.
        fetch: (after, limitPlusOne) => repo.transactionsPage(storeId, customerId, after ? after[0] : Number.MAX_SAFE_INTEGER, limitPlusOne),
        keyOf: (t) => [t.seq],
      });
      const out: TransactionsResponse = { transactions: rows.map(toTransaction) };
      // Relative to `/v1` like every storefront nextUrl (docs/api.md, Paging).
      if (next) out.nextUrl = `/stores/${encodeURIComponent(storeId)}/loyalty/customer/transactions?limit=${query.limit}&lastEvaluated=${encodeURIComponent(next)}`;
      return out;
    },

    /** GET /loyalty/earning_rules: general (no customer) or tailored (multiplier applied, isAvailable). */
    async earningRules(storeId: string, customer: CustomerRow | null): Promise<EarningRulesResponse> {
      await requireProgram(storeId);
      const tiers = await repo.vipTiers(storeId);
      const m = customer ? multiplierOf(customer, tiers) : 1;
      const rules = (await repo.earningRules(storeId)).filter((r) => r.enabled === 1);
      return {
        earningRules: rules.map((r: EarningRuleRow): EarningRule => ({
          earningRuleId: r.earning_rule_id,
          type: r.type,
          name: r.name,
          points: r.type === "sign-up" ? r.points : Math.floor(r.points * m),
          ...(r.points_per_currency_unit !== null ? { pointsPerCurrencyUnit: Math.round(r.points_per_currency_unit * m * 1000) / 1000 } : {}),
          ...(customer ? { isAvailable: customer.status !== "blocked" && tierAllows(customer, tiers, r.minimum_vip_tier_id) && !(r.type === "sign-up" && customer.status === "enrolled") } : {}),
        })),
      };
    },

    /** GET /loyalty/redemption_rules: general, or tailored with isAvailable (enrolled, tier, enough points). */
    async redemptionRules(storeId: string, customer: CustomerRow | null): Promise<RedemptionRulesResponse> {
      await requireProgram(storeId);
      const tiers = await repo.vipTiers(storeId);
      return {
        redemptionRules: (await repo.redemptionRules(storeId))
          .filter((r) => r.enabled === 1)
          .map((r: RedemptionRuleRow): RedemptionRule => ({
            redemptionRuleId: r.redemption_rule_id,
            type: r.type,
            name: r.name,
            pointsCost: r.points_cost,
            reward: { type: "coupon", description: r.reward_description, value: r.reward_value },
            ...(customer ? { isAvailable: customer.status === "enrolled" && tierAllows(customer, tiers, r.minimum_vip_tier_id) && customer.balance >= r.points_cost } : {}),
          })),
      };
    },

    /** GET /loyalty/vip_tiers: general, or tailored with isAvailable = the customer has reached the tier. */
    async vipTiers(storeId: string, customer: CustomerRow | null): Promise<VipTiersResponse> {
      await requireProgram(storeId);
      const tiers = await repo.vipTiers(storeId);
      const current = customer?.status === "enrolled" ? tierById(tiers, customer.vip_tier_id) : undefined;
      return {
        vipTiers: tiers.map((t): VipTier => ({
          vipTierId: t.vip_tier_id,
          name: t.name,
          pointsThreshold: t.points_threshold,
          pointsMultiplier: t.points_multiplier,
          ...(t.perks_json ? { perks: JSON.parse(t.perks_json) as string[] } : {}),
          ...(customer ? { isAvailable: !!current && current.points_threshold >= t.points_threshold } : {}),
        })),
      };
    },
  };
}
export type LoyaltyStorefrontReads = ReturnType<typeof loyaltyStorefrontReads>;

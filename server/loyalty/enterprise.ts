/**
 * The enterprise loyalty API's customer operations (docs/loyalty.md "Enterprise loyalty API"; Basic auth, the store of
 * the API key): look a customer up by e-mail, platform customer ID or loyalty customer ID; list their transactions;
 * adjust points with a reason (never below zero: 409); block and unblock; set a minimum VIP tier; list issued rewards
 * with their state on the shop platform.
 */
import { badRequest, notFound } from "../contract/errors.ts";
import type { AdjustmentBody, CustomerPatchBody, EnterpriseCustomer, IssuedReward } from "../contract/loyalty-lifecycle.ts";
import type { LoyaltyTransaction } from "../contract/loyalty.responses.ts";
import { transaction, type Db } from "../db/database.ts";
import { isoFromMs } from "../shared/iso-date.ts";
import { keysetPage } from "../shared/keyset-pager.ts";
import { recalculateTier } from "./ledger.ts";
import type { LoyaltyLifecycle } from "./lifecycle.ts";
import type { CustomerRow, LoyaltyRepo, TransactionRow } from "./loyalty.repo.ts";
import type { LoyaltyService } from "./loyalty.service.ts";
import type { PlatformRewardsRepo } from "./platform-rewards.repo.ts";
import { toTransaction } from "./shapes.ts";
import { tierById } from "./tiers.ts";

const noCustomer = () => notFound("No loyalty customer matches (customers join by signing in to the loyalty program first)", "loyalty_customer_not_found");

/** Create the enterprise part of loyalty. `secret` signs transaction cursors. */
export function loyaltyEnterprise(deps: {
  db: Db;
  repo: LoyaltyRepo;
  rewardsRepo: PlatformRewardsRepo;
  lifecycle: LoyaltyLifecycle;
  ledger: Pick<LoyaltyService, "adjustPoints" | "setCustomerBlocked" | "legalPolicies">;
  secret: string;
}) {
  const { db, repo, rewardsRepo, lifecycle, ledger, secret } = deps;

  async function row(storeId: string, customerId: string): Promise<CustomerRow> {
    await ledger.legalPolicies(storeId); // 404 without a program (or turned off)
    const c = await repo.getCustomer(storeId, customerId);
    if (!c) throw noCustomer();
    return c;
  }

  async function shape(storeId: string, c: CustomerRow): Promise<EnterpriseCustomer> {
    const tiers = await repo.vipTiers(storeId);
    const life = await lifecycle.customerLifecycle(storeId, c.loyalty_customer_id);
    const tier = tierById(tiers, c.vip_tier_id);
    const minimum = tierById(tiers, c.minimum_vip_tier_id);
    return {
      loyaltyCustomerId: c.loyalty_customer_id,
      platformCustomerId: c.platform_customer_id,
      email: c.email,
      status: c.status,
      points: { balance: c.balance, pending: life.pending, lifetime: c.lifetime_points },
      vipTier: tier ? { vipTierId: tier.vip_tier_id, name: tier.name } : null,
      minimumVipTier: minimum ? { vipTierId: minimum.vip_tier_id, name: minimum.name } : null,
      birthday: life.birthday,
      pointsExpireAt: life.pointsExpireMs === null ? null : isoFromMs(life.pointsExpireMs),
      dateEnrolled: c.enrolled_ms ? isoFromMs(c.enrolled_ms) : null,
      dateCreated: isoFromMs(c.created_ms),
    };
  }

  return {
    /** GET /enterprise/loyalty/customers?email=|platformCustomerId=. @throws 404 no program or no such customer. */
    async lookup(storeId: string, q: { email?: string; platformCustomerId?: string }): Promise<{ loyaltyCustomer: EnterpriseCustomer }> {
      await ledger.legalPolicies(storeId);
      const c = q.email !== undefined ? await repo.getCustomerByEmail(storeId, q.email) : await repo.getCustomerByPlatformId(storeId, q.platformCustomerId!);
      if (!c) throw noCustomer();
      return { loyaltyCustomer: await shape(storeId, c) };
    },
    /** GET /enterprise/loyalty/customers/{id}. @throws 404. */
    async get(storeId: string, customerId: string): Promise<{ loyaltyCustomer: EnterpriseCustomer }> {
      return { loyaltyCustomer: await shape(storeId, await row(storeId, customerId)) };
    },
    /** GET /enterprise/loyalty/customers/{id}/transactions: newest first, keyset-paged. @throws 400 bad cursor, 404. */
    async transactions(storeId: string, customerId: string, q: { limit: number; lastEvaluated?: string }): Promise<{ transactions: LoyaltyTransaction[]; lastEvaluated?: string }> {
      await row(storeId, customerId);
      const { rows, next } = await keysetPage<TransactionRow, [number]>({
        secret,
        context: `enterprise-loyalty-transactions|${storeId}|${customerId}`,
        cursor: q.lastEvaluated,
        shape: ["number"],
        limit: q.limit,
        fetch: (after, limitPlusOne) => repo.transactionsPage(storeId, customerId, after ? after[0] : Number.MAX_SAFE_INTEGER, limitPlusOne),
        keyOf: (t) => [t.seq],
      });
      return { transactions: rows.map(toTransaction), ...(next ? { lastEvaluated: next } : {}) };
    },
    /** POST /enterprise/loyalty/customers/{id}/adjustments. @throws 404, 409 `insufficient_points` (never below zero). */
    async adjust(storeId: string, customerId: string, body: AdjustmentBody): Promise<{ transaction: LoyaltyTransaction; loyaltyCustomer: EnterpriseCustomer }> {
      await row(storeId, customerId);
      const tx = await ledger.adjustPoints(storeId, customerId, body.points, body.reason);
      return { transaction: tx, loyaltyCustomer: await shape(storeId, (await repo.getCustomer(storeId, customerId))!) };
    },
    /** PATCH /enterprise/loyalty/customers/{id}: block/unblock and/or the minimum VIP tier (by ID). @throws 400 unknown tier, 404. */
    async patch(storeId: string, customerId: string, body: CustomerPatchBody): Promise<{ loyaltyCustomer: EnterpriseCustomer }> {
      await row(storeId, customerId);
      if (body.minimumVipTierId !== undefined) {
        await transaction(db, async () => {
          const tierId = body.minimumVipTierId ?? null;
          if (tierId !== null && !tierById(await repo.vipTiers(storeId), tierId)) throw badRequest("minimumVipTierId is not a VIP tier of this program", "vip_tier_not_found");
          await repo.lockCustomer(storeId, customerId); // row lock on the customer before the tier is recalculated
          await repo.setMinimumTier(storeId, customerId, tierId);
          await recalculateTier(repo, storeId, customerId);
        });
      }
      if (body.blocked !== undefined) await ledger.setCustomerBlocked(storeId, customerId, body.blocked);
      return { loyaltyCustomer: await shape(storeId, (await repo.getCustomer(storeId, customerId))!) };
    },
    /**
     * GET /enterprise/loyalty/customers/{id}/rewards: the rewards issued by redemptions, newest first, each with its
     * platform state as its `loyalty_rewards` row holds it, then the codes issued before migration 101 (`chorus-only`). @throws 404.
     */
    async rewards(storeId: string, customerId: string): Promise<{ rewards: IssuedReward[] }> {
      await row(storeId, customerId);
      const issued = await rewardsRepo.listForCustomer(storeId, customerId);
      const known = new Set(issued.map((r) => r.code));
      const onPlatform: IssuedReward[] = issued.map((r) => ({
        transactionId: r.transaction_id,
        redemptionRuleId: r.redemption_rule_id,
        code: r.code,
        description: r.reward_description ?? r.code,
        pointsCost: r.points_cost,
        platform: r.platform,
        platformState: r.state === "confirmed" ? (r.reconciled_ms != null ? "reconciled" : "created") : r.state,
        platformError: r.state === "confirmed" ? null : r.error,
        dateCreated: isoFromMs(r.created_ms),
      }));
      const legacy: IssuedReward[] = (await lifecycle.redemptions(storeId, customerId))
        .filter((r) => r.coupon_code && !known.has(r.coupon_code))
        .map((r) => ({
          transactionId: r.transaction_id,
          redemptionRuleId: r.redemption_rule_id,
          code: r.coupon_code!,
          description: r.reward_description ?? r.description,
          pointsCost: -r.points,
          platform: null,
          platformState: "chorus-only" as const,
          platformError: null,
          dateCreated: isoFromMs(r.created_ms),
        }));
      return { rewards: [...onPlatform, ...legacy].sort((a, b) => b.dateCreated.localeCompare(a.dateCreated)) };
    },
  };
}
export type LoyaltyEnterprise = ReturnType<typeof loyaltyEnterprise>;

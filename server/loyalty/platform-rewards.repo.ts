/**
 * SQL of rewards issued on the shop platform (migration 101, docs/loyalty.md "Rewards at checkout"): one
 * `loyalty_rewards` row per redemption, `pending` while the platform is asked, then `confirmed` (with its
 * redemption transaction) or `failed`. Every statement names the store, except the reconciler's scan of
 * stale pending rows across stores. Times are epoch ms.
 */
import { all, one, run, sql, value, type Db } from "../db/database.ts";

export type RewardPlatform = "shopify" | "woocommerce" | "webhook" | "demo";
export type RewardState = "pending" | "confirmed" | "failed";
export type RewardRow = {
  code: string;
  store_id: string;
  loyalty_customer_id: string;
  redemption_rule_id: string;
  reward_type: string;
  reward_value: number;
  points_cost: number;
  platform: RewardPlatform;
  state: RewardState;
  platform_discount_id: string | null;
  error: string | null;
  transaction_id: string | null;
  created_ms: number;
  updated_ms: number;
  /** When the reconciler settled it (migration 106); null when the redemption itself did. */
  reconciled_ms?: number | null;
};
/** A redemption rule's platform conditions (null: none). */
export type RewardConditions = { minimum_order_amount: number | null; code_expires_after_days: number | null };

/** Create the rewards data module over `db`. Every function returns a promise. */
export function platformRewardsRepo(db: Db) {
  return {
    /** Points of the customer's pending rewards (reserved: not spendable until the platform answers). */
    reservedPoints: async (storeId: string, loyaltyCustomerId: string): Promise<number> =>
      Number(
        (await value<number>(
          db,
          sql`SELECT COALESCE(SUM(points_cost), 0) AS reserved FROM loyalty_rewards
        WHERE store_id = ${storeId} AND loyalty_customer_id = ${loyaltyCustomerId} AND state = 'pending'`,
        )) ?? 0,
      ),
    /** Insert a pending reward (caller's transaction, customer row locked). */
    async insertPending(r: Omit<RewardRow, "state" | "platform_discount_id" | "error" | "transaction_id" | "updated_ms">): Promise<void> {
      await run(
        db,
        sql`INSERT INTO loyalty_rewards (code, store_id, loyalty_customer_id, redemption_rule_id, reward_type, reward_value, points_cost, platform, state, created_ms, updated_ms)
        VALUES (${r.code}, ${r.store_id}, ${r.loyalty_customer_id}, ${r.redemption_rule_id}, ${r.reward_type}, ${r.reward_value}, ${r.points_cost}, ${r.platform}, 'pending', ${r.created_ms}, ${r.created_ms})`,
      );
    },
    get: (storeId: string, code: string): Promise<RewardRow | undefined> => one<RewardRow>(db, sql`SELECT * FROM loyalty_rewards WHERE store_id = ${storeId} AND code = ${code}`),
    /**
     * pending → confirmed with its transaction (`reconciled`: by the reconciler, noted in `reconciled_ms`). Conditional
     * UPDATE: @returns false when the row is no longer pending (another node or the reconciler settled it first).
     */
    confirm: async (storeId: string, code: string, transactionId: string, discountId: string | null, nowMs: number, reconciled = false): Promise<boolean> =>
      (
        await run(
          db,
          sql`UPDATE loyalty_rewards SET state = 'confirmed', transaction_id = ${transactionId}, platform_discount_id = ${discountId}, error = NULL, updated_ms = ${nowMs},
          reconciled_ms = ${reconciled ? nowMs : null}
        WHERE store_id = ${storeId} AND code = ${code} AND state = 'pending'`,
        )
      ).changes === 1,
    /** pending → failed (the reservation is released; `reconciled`: by the reconciler). @returns false when it was no longer pending. */
    fail: async (storeId: string, code: string, error: string, nowMs: number, reconciled = false): Promise<boolean> =>
      (
        await run(
          db,
          sql`UPDATE loyalty_rewards SET state = 'failed', error = ${error.slice(0, 500)}, updated_ms = ${nowMs}, reconciled_ms = ${reconciled ? nowMs : null}
        WHERE store_id = ${storeId} AND code = ${code} AND state = 'pending'`,
        )
      ).changes === 1,
    /** A customer's rewards, newest first (the enterprise list of issued rewards), with the rule's reward description. */
    listForCustomer: (storeId: string, loyaltyCustomerId: string): Promise<(RewardRow & { reward_description: string | null })[]> =>
      all<RewardRow & { reward_description: string | null }>(
        db,
        sql`SELECT w.*, r.reward_description FROM loyalty_rewards w
          LEFT JOIN loyalty_redemption_rules r ON r.store_id = w.store_id AND r.redemption_rule_id = w.redemption_rule_id
        WHERE w.store_id = ${storeId} AND w.loyalty_customer_id = ${loyaltyCustomerId} ORDER BY w.created_ms DESC, w.code DESC LIMIT 1000`,
      ),
    /** Note the last platform error of a reward left pending (a timeout: the reconciler asks again). */
    async noteError(storeId: string, code: string, error: string, nowMs: number): Promise<void> {
      await run(db, sql`UPDATE loyalty_rewards SET error = ${error.slice(0, 500)}, updated_ms = ${nowMs} WHERE store_id = ${storeId} AND code = ${code} AND state = 'pending'`);
    },
    /** Pending rewards created before `beforeMs`, oldest first (the reconciler's work, every store). */
    stalePending: (beforeMs: number, limit: number): Promise<RewardRow[]> =>
      all<RewardRow>(db, sql`SELECT * FROM loyalty_rewards WHERE state = 'pending' AND created_ms < ${beforeMs} ORDER BY created_ms LIMIT ${limit}`),
    /** A store's rewards, newest first (the admin's list). */
    listForStore: (storeId: string, limit: number, platform?: RewardPlatform): Promise<RewardRow[]> =>
      all<RewardRow>(
        db,
        sql`SELECT * FROM loyalty_rewards WHERE store_id = ${storeId} ${platform ? sql`AND platform = ${platform}` : sql``}
        ORDER BY created_ms DESC, code DESC LIMIT ${limit}`,
      ),
    /** A redemption rule's platform conditions, or undefined for an unknown rule. */
    conditions: (storeId: string, redemptionRuleId: string): Promise<RewardConditions | undefined> =>
      one<RewardConditions>(db, sql`SELECT minimum_order_amount, code_expires_after_days FROM loyalty_redemption_rules WHERE store_id = ${storeId} AND redemption_rule_id = ${redemptionRuleId}`),
    /** Set a redemption rule's platform conditions. @returns false for an unknown rule. */
    setConditions: async (storeId: string, redemptionRuleId: string, c: { minimumOrderAmount: number | null; expiresAfterDays: number | null }): Promise<boolean> =>
      (
        await run(
          db,
          sql`UPDATE loyalty_redemption_rules SET minimum_order_amount = ${c.minimumOrderAmount}, code_expires_after_days = ${c.expiresAfterDays}
        WHERE store_id = ${storeId} AND redemption_rule_id = ${redemptionRuleId}`,
        )
      ).changes === 1,
    /** Whether the store has an enabled webhook subscription to `loyalty_reward.created`. */
    hasRewardSubscriber: async (storeId: string): Promise<boolean> =>
      (await one(
        db,
        sql`SELECT 1 AS one FROM webhook_subscriptions s JOIN webhook_subscription_events e ON e.subscription_id = s.subscription_id
        WHERE s.store_id = ${storeId} AND s.status = 'enabled' AND e.event_type = 'loyalty_reward.created'`,
      )) !== undefined,
    /** The enabled subscriptions to `loyalty_reward.created`: URL and sealed secret. */
    rewardSubscribers: (storeId: string): Promise<{ subscription_id: string; url: string; secret_encrypted: string }[]> =>
      all(
        db,
        sql`SELECT s.subscription_id, s.url, s.secret_encrypted FROM webhook_subscriptions s JOIN webhook_subscription_events e ON e.subscription_id = s.subscription_id
        WHERE s.store_id = ${storeId} AND s.status = 'enabled' AND e.event_type = 'loyalty_reward.created' ORDER BY s.created_ms, s.subscription_id`,
      ),
  };
}
export type PlatformRewardsRepo = ReturnType<typeof platformRewardsRepo>;

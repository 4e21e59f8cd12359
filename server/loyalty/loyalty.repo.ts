/**
 * Loyalty program SQL (prepared statements only; the store ID in every WHERE). Rules live in
 * loyalty.service.ts; this module reads and writes rows. The ledger's invariants (append-only,
 * balance = sum of transactions, no negative balance) are enforced by triggers (migration 040) and
 * checked by `ledgerCheck`.
 */
import { dialect, type Db } from "../db/database.ts";
import type { EarningRuleType, LoyaltyCustomerStatus, RedemptionRuleType, TransactionType } from "../contract/loyalty.ts";

export type ProgramRow = {
  store_id: string; platform_adapter: string; platform_secret: string; button_text: string; policy_html: string; policy_template: string;
  privacy_policy_url: string; terms_url: string; policy_version: string; merchant_policies_json: string | null; updated_ms: number;
  /** 1 = on, 0 = turned off by the merchant (the storefront API then answers as without a program). */
  enabled: number;
  /** When the platform secret was last generated in the admin (ms), or null (set up by a seeder or test). */
  platform_secret_ms: number | null;
};
export type CustomerRow = {
  loyalty_customer_id: string; store_id: string; platform_customer_id: string; email: string | null; status: LoyaltyCustomerStatus;
  balance: number; lifetime_points: number; vip_tier_id: string | null; minimum_vip_tier_id: string | null;
  enrollment_channel: string | null; legal_version_accepted: string | null; enrolled_ms: number | null; created_ms: number;
};
export type VipTierRow = { vip_tier_id: string; store_id: string; name: string; points_threshold: number; points_multiplier: number; perks_json: string | null };
export type EarningRuleRow = {
  earning_rule_id: string; store_id: string; type: EarningRuleType; name: string; points: number; points_per_currency_unit: number | null;
  enabled: number; minimum_vip_tier_id: string | null; position: number;
};
export type RedemptionRuleRow = {
  redemption_rule_id: string; store_id: string; type: RedemptionRuleType; name: string; points_cost: number; reward_description: string;
  reward_value: number; enabled: number; minimum_vip_tier_id: string | null; position: number;
};
export type TransactionRow = {
  seq: number; transaction_id: string; store_id: string; loyalty_customer_id: string; type: TransactionType; points: number; balance_after: number;
  description: string; earning_rule_id: string | null; redemption_rule_id: string | null; award_key: string | null; order_id: string | null;
  coupon_code: string | null; created_ms: number;
};
export type NewTransaction = {
  transactionId: string; storeId: string; loyaltyCustomerId: string; type: TransactionType; points: number; balanceAfter: number; description: string;
  earningRuleId?: string | null; redemptionRuleId?: string | null; awardKey?: string | null; orderId?: string | null; couponCode?: string | null; createdMs: number;
};
export type ReviewForEarning = { review_id: string; media_count: number; product_name: string | null };

/** Create the loyalty data module over `db`. */
export function loyaltyRepo(db: Db) {
  const getProgram = db.prepare<[string], ProgramRow>("SELECT * FROM loyalty_programs WHERE store_id = ?");
  const getCustomer = db.prepare<[string, string], CustomerRow>("SELECT * FROM loyalty_customers WHERE store_id = ? AND loyalty_customer_id = ?");
  const getCustomerByPlatformId = db.prepare<[string, string], CustomerRow>("SELECT * FROM loyalty_customers WHERE store_id = ? AND platform_customer_id = ?");
  const getCustomerByEmail = db.prepare<[string, string], CustomerRow>("SELECT * FROM loyalty_customers WHERE store_id = ? AND email = ? ORDER BY created_ms LIMIT 1");
  const insertCustomer = db.prepare(
    `INSERT INTO loyalty_customers (loyalty_customer_id, store_id, platform_customer_id, email, status, created_ms)
     VALUES (@loyaltyCustomerId, @storeId, @platformCustomerId, @email, @status, @createdMs)
     ON CONFLICT (store_id, platform_customer_id) DO NOTHING`,
  );
  const tiers = db.prepare<[string], VipTierRow>("SELECT * FROM loyalty_vip_tiers WHERE store_id = ? ORDER BY points_threshold");
  const earningRules = db.prepare<[string], EarningRuleRow>("SELECT * FROM loyalty_earning_rules WHERE store_id = ? ORDER BY position, earning_rule_id");
  const redemptionRules = db.prepare<[string], RedemptionRuleRow>("SELECT * FROM loyalty_redemption_rules WHERE store_id = ? ORDER BY position, redemption_rule_id");
  const getRedemptionRule = db.prepare<[string, string], RedemptionRuleRow>("SELECT * FROM loyalty_redemption_rules WHERE store_id = ? AND redemption_rule_id = ?");
  const insertTx = db.prepare(
    `INSERT INTO loyalty_transactions (transaction_id, store_id, loyalty_customer_id, type, points, balance_after, description,
       earning_rule_id, redemption_rule_id, award_key, order_id, coupon_code, created_ms)
     VALUES (@transactionId, @storeId, @loyaltyCustomerId, @type, @points, @balanceAfter, @description,
       @earningRuleId, @redemptionRuleId, @awardKey, @orderId, @couponCode, @createdMs)`,
  );
  const getTx = db.prepare<[string, string], TransactionRow>("SELECT * FROM loyalty_transactions WHERE store_id = ? AND transaction_id = ?");
  const getTxByOrder = db.prepare<[string, string], TransactionRow>("SELECT * FROM loyalty_transactions WHERE store_id = ? AND order_id = ?");
  const hasAward = db.prepare<[string, string, string], { one: number }>(
    "SELECT 1 AS one FROM loyalty_transactions WHERE store_id = ? AND loyalty_customer_id = ? AND award_key = ?",
  );
  const pageTx = db.prepare<[string, string, number, number], TransactionRow>(
    `SELECT * FROM loyalty_transactions WHERE store_id = ? AND loyalty_customer_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
  );
  const unawardedReviews = db.prepare<[string, string, string, string], ReviewForEarning>(
    // INDEXED BY: without it the planner may pick (store_id, status) and scan every published review of
    // the store on each customer read; the e-mail index finds the customer's few reviews directly.
    // (PostgreSQL has no index hints; its planner picks the e-mail index by its statistics.)
    `SELECT r.review_id, r.media_count, p.name AS product_name
       FROM reviews r ${dialect(db) === "postgres" ? "" : "INDEXED BY loyalty_reviews_email"} LEFT JOIN products p ON p.store_id = r.store_id AND p.product_id = r.product_id
      WHERE r.store_id = ? AND lower(r.reviewer_email) = ? AND r.reviewer_email IS NOT NULL AND r.status = 'published'
        AND NOT EXISTS (SELECT 1 FROM loyalty_transactions t
                         WHERE t.store_id = ? AND t.loyalty_customer_id = ? AND t.award_key = 'review:' || r.review_id)
      ORDER BY r.created_ms, r.review_id`,
  );
  const ledgerSum = db.prepare<[string, string], { balance: number; sum: number; last: number | null; negative: number }>(
    `SELECT c.balance AS balance,
            (SELECT COALESCE(SUM(points), 0) FROM loyalty_transactions WHERE store_id = c.store_id AND loyalty_customer_id = c.loyalty_customer_id) AS sum,
            (SELECT balance_after FROM loyalty_transactions WHERE store_id = c.store_id AND loyalty_customer_id = c.loyalty_customer_id ORDER BY seq DESC LIMIT 1) AS last,
            (SELECT count(*) FROM loyalty_transactions WHERE store_id = c.store_id AND loyalty_customer_id = c.loyalty_customer_id AND balance_after < 0) AS negative
       FROM loyalty_customers c WHERE c.store_id = ? AND c.loyalty_customer_id = ?`,
  );

  return {
    getProgram: (storeId: string): ProgramRow | undefined => getProgram.get(storeId),
    /** Insert or replace a store's program row (secret and legal policies). */
    upsertProgram(p: Omit<ProgramRow, "updated_ms" | "platform_adapter" | "enabled" | "platform_secret_ms"> & { platform_adapter?: string }): void {
      db.prepare(
        `INSERT INTO loyalty_programs (store_id, platform_adapter, platform_secret, button_text, policy_html, policy_template, privacy_policy_url, terms_url, policy_version, merchant_policies_json, updated_ms)
         VALUES (@store_id, @platform_adapter, @platform_secret, @button_text, @policy_html, @policy_template, @privacy_policy_url, @terms_url, @policy_version, @merchant_policies_json, @updated_ms)
         ON CONFLICT (store_id) DO UPDATE SET platform_adapter = excluded.platform_adapter, platform_secret = excluded.platform_secret,
           button_text = excluded.button_text, policy_html = excluded.policy_html, policy_template = excluded.policy_template,
           privacy_policy_url = excluded.privacy_policy_url, terms_url = excluded.terms_url, policy_version = excluded.policy_version,
           merchant_policies_json = excluded.merchant_policies_json, updated_ms = excluded.updated_ms`,
      ).run({ platform_adapter: "hs256", ...p, updated_ms: Date.now() });
    },

    /** Turn a store's program on (true) or off. @returns false when the store has no program. */
    setProgramEnabled(storeId: string, enabled: boolean): boolean {
      return db.prepare("UPDATE loyalty_programs SET enabled = ?, updated_ms = ? WHERE store_id = ?").run(enabled ? 1 : 0, Date.now(), storeId).changes === 1;
    },
    /** Replace a store's platform secret, generated at `nowMs`. @returns false when the store has no program. */
    setPlatformSecret(storeId: string, secret: string, nowMs: number): boolean {
      return db.prepare("UPDATE loyalty_programs SET platform_secret = ?, platform_secret_ms = ?, updated_ms = ? WHERE store_id = ?")
        .run(secret, nowMs, nowMs, storeId).changes === 1;
    },
    /**
     * Mark a review as incentivized (its reviewer received points or a coupon for it); called in the
     * transaction that awards them. @returns false when the store has no such review.
     */
    markReviewIncentivized(storeId: string, reviewId: string): boolean {
      return db.prepare("UPDATE reviews SET is_incentivized = 1 WHERE store_id = ? AND review_id = ? AND is_incentivized = 0").run(storeId, reviewId).changes === 1;
    },

    getCustomer: (storeId: string, loyaltyCustomerId: string): CustomerRow | undefined => getCustomer.get(storeId, loyaltyCustomerId),
    getCustomerByPlatformId: (storeId: string, platformCustomerId: string): CustomerRow | undefined => getCustomerByPlatformId.get(storeId, platformCustomerId),
    getCustomerByEmail: (storeId: string, email: string): CustomerRow | undefined => getCustomerByEmail.get(storeId, email.toLowerCase()),
    /** Insert a customer unless the platform customer ID exists already (first login). */
    insertCustomer(c: { loyaltyCustomerId: string; storeId: string; platformCustomerId: string; email: string | null; status?: LoyaltyCustomerStatus }): void {
      insertCustomer.run({ ...c, email: c.email?.toLowerCase() ?? null, status: c.status ?? "pending", createdMs: Date.now() });
    },
    updateEmail(storeId: string, loyaltyCustomerId: string, email: string): void {
      db.prepare("UPDATE loyalty_customers SET email = ? WHERE store_id = ? AND loyalty_customer_id = ?").run(email.toLowerCase(), storeId, loyaltyCustomerId);
    },
    /** pending → enrolled (only from pending). @returns true when this call enrolled the customer. */
    enrol(storeId: string, loyaltyCustomerId: string, channel: string, version: string, tierId: string | null): boolean {
      return db.prepare(
        `UPDATE loyalty_customers SET status = 'enrolled', enrollment_channel = ?, legal_version_accepted = ?, enrolled_ms = ?, vip_tier_id = ?
          WHERE store_id = ? AND loyalty_customer_id = ? AND status = 'pending'`,
      ).run(channel, version, Date.now(), tierId, storeId, loyaltyCustomerId).changes === 1;
    },
    setStatus(storeId: string, loyaltyCustomerId: string, status: LoyaltyCustomerStatus): void {
      db.prepare("UPDATE loyalty_customers SET status = ? WHERE store_id = ? AND loyalty_customer_id = ?").run(status, storeId, loyaltyCustomerId);
    },
    setTier(storeId: string, loyaltyCustomerId: string, tierId: string | null): void {
      db.prepare("UPDATE loyalty_customers SET vip_tier_id = ? WHERE store_id = ? AND loyalty_customer_id = ?").run(tierId, storeId, loyaltyCustomerId);
    },
    setMinimumTier(storeId: string, loyaltyCustomerId: string, tierId: string | null): void {
      db.prepare("UPDATE loyalty_customers SET minimum_vip_tier_id = ? WHERE store_id = ? AND loyalty_customer_id = ?").run(tierId, storeId, loyaltyCustomerId);
    },
    /** IDs of a store's customers that may earn (not blocked) and have an e-mail (review catch-up). */
    customersWithEmail(storeId: string): string[] {
      return db.prepare<[string], { id: string }>(
        "SELECT loyalty_customer_id AS id FROM loyalty_customers WHERE store_id = ? AND email IS NOT NULL AND status != 'blocked'",
      ).all(storeId).map((r) => r.id);
    },

    vipTiers: (storeId: string): VipTierRow[] => tiers.all(storeId),
    insertVipTier(t: VipTierRow): void {
      db.prepare("INSERT INTO loyalty_vip_tiers (vip_tier_id, store_id, name, points_threshold, points_multiplier, perks_json) VALUES (@vip_tier_id, @store_id, @name, @points_threshold, @points_multiplier, @perks_json)").run(t);
    },
    earningRules: (storeId: string): EarningRuleRow[] => earningRules.all(storeId),
    insertEarningRule(r: EarningRuleRow): void {
      db.prepare(
        `INSERT INTO loyalty_earning_rules (earning_rule_id, store_id, type, name, points, points_per_currency_unit, enabled, minimum_vip_tier_id, position)
         VALUES (@earning_rule_id, @store_id, @type, @name, @points, @points_per_currency_unit, @enabled, @minimum_vip_tier_id, @position)`,
      ).run(r);
    },
    redemptionRules: (storeId: string): RedemptionRuleRow[] => redemptionRules.all(storeId),
    getRedemptionRule: (storeId: string, redemptionRuleId: string): RedemptionRuleRow | undefined => getRedemptionRule.get(storeId, redemptionRuleId),
    insertRedemptionRule(r: RedemptionRuleRow): void {
      db.prepare(
        `INSERT INTO loyalty_redemption_rules (redemption_rule_id, store_id, type, name, points_cost, reward_description, reward_value, enabled, minimum_vip_tier_id, position)
         VALUES (@redemption_rule_id, @store_id, @type, @name, @points_cost, @reward_description, @reward_value, @enabled, @minimum_vip_tier_id, @position)`,
      ).run(r);
    },

    /** Merchant edit of an earning rule's points. @returns false when the store has no such rule. */
    updateEarningRule(storeId: string, earningRuleId: string, r: { points: number; pointsPerCurrencyUnit: number | null; enabled: boolean }): boolean {
      return db.prepare("UPDATE loyalty_earning_rules SET points = ?, points_per_currency_unit = ?, enabled = ? WHERE store_id = ? AND earning_rule_id = ?")
        .run(r.points, r.pointsPerCurrencyUnit, r.enabled ? 1 : 0, storeId, earningRuleId).changes === 1;
    },
    /** Merchant edit of a redemption rule's cost. @returns false when the store has no such rule. */
    updateRedemptionRule(storeId: string, redemptionRuleId: string, r: { pointsCost: number; enabled: boolean }): boolean {
      return db.prepare("UPDATE loyalty_redemption_rules SET points_cost = ?, enabled = ? WHERE store_id = ? AND redemption_rule_id = ?")
        .run(r.pointsCost, r.enabled ? 1 : 0, storeId, redemptionRuleId).changes === 1;
    },
    /** Merchant edit of a VIP tier. @returns false when the store has no such tier. Throws SQLITE_CONSTRAINT_UNIQUE for a threshold taken. */
    updateVipTier(storeId: string, vipTierId: string, t: { pointsThreshold: number; pointsMultiplier: number }): boolean {
      return db.prepare("UPDATE loyalty_vip_tiers SET points_threshold = ?, points_multiplier = ? WHERE store_id = ? AND vip_tier_id = ?")
        .run(t.pointsThreshold, t.pointsMultiplier, storeId, vipTierId).changes === 1;
    },
    /** The position after the last earning rule / redemption rule of a store (new rules go last). */
    nextPosition(storeId: string, table: "earning" | "redemption"): number {
      const sql = table === "earning"
        ? "SELECT COALESCE(MAX(position) + 1, 0) AS n FROM loyalty_earning_rules WHERE store_id = ?"
        : "SELECT COALESCE(MAX(position) + 1, 0) AS n FROM loyalty_redemption_rules WHERE store_id = ?";
      return db.prepare<[string], { n: number }>(sql).get(storeId)!.n;
    },
    /** Merchant edit of every field of an earning rule but its type. @returns false when the store has no such rule. */
    editEarningRule(storeId: string, earningRuleId: string, r: { name: string; points: number; pointsPerCurrencyUnit: number | null; enabled: boolean }): boolean {
      return db.prepare("UPDATE loyalty_earning_rules SET name = ?, points = ?, points_per_currency_unit = ?, enabled = ? WHERE store_id = ? AND earning_rule_id = ?")
        .run(r.name, r.points, r.pointsPerCurrencyUnit, r.enabled ? 1 : 0, storeId, earningRuleId).changes === 1;
    },
    /** Merchant edit of every field of a redemption rule but its type. @returns false when the store has no such rule. */
    editRedemptionRule(storeId: string, redemptionRuleId: string, r: { name: string; pointsCost: number; rewardDescription: string; rewardValue: number; enabled: boolean }): boolean {
      return db.prepare("UPDATE loyalty_redemption_rules SET name = ?, points_cost = ?, reward_description = ?, reward_value = ?, enabled = ? WHERE store_id = ? AND redemption_rule_id = ?")
        .run(r.name, r.pointsCost, r.rewardDescription, r.rewardValue, r.enabled ? 1 : 0, storeId, redemptionRuleId).changes === 1;
    },
    /** Merchant edit of every field of a VIP tier. @returns false when the store has no such tier. */
    editVipTier(storeId: string, vipTierId: string, t: { name: string; pointsThreshold: number; pointsMultiplier: number; perks: string[] }): boolean {
      return db.prepare("UPDATE loyalty_vip_tiers SET name = ?, points_threshold = ?, points_multiplier = ?, perks_json = ? WHERE store_id = ? AND vip_tier_id = ?")
        .run(t.name, t.pointsThreshold, t.pointsMultiplier, t.perks.length ? JSON.stringify(t.perks) : null, storeId, vipTierId).changes === 1;
    },
    /** Remove an earning rule (past transactions keep their description). @returns false when the store has no such rule. */
    deleteEarningRule(storeId: string, earningRuleId: string): boolean {
      return db.prepare("DELETE FROM loyalty_earning_rules WHERE store_id = ? AND earning_rule_id = ?").run(storeId, earningRuleId).changes === 1;
    },
    /** Remove a redemption rule (issued coupons stay in the ledger). @returns false when the store has no such rule. */
    deleteRedemptionRule(storeId: string, redemptionRuleId: string): boolean {
      return db.prepare("DELETE FROM loyalty_redemption_rules WHERE store_id = ? AND redemption_rule_id = ?").run(storeId, redemptionRuleId).changes === 1;
    },
    /**
     * Remove a VIP tier: customers in it or with it as minimum tier lose that reference, and rules that
     * required it are open to every tier; recalculate the tiers afterwards. @returns false when the store has no such tier.
     */
    deleteVipTier(storeId: string, vipTierId: string): boolean {
      db.prepare("UPDATE loyalty_customers SET vip_tier_id = NULL WHERE store_id = ? AND vip_tier_id = ?").run(storeId, vipTierId);
      db.prepare("UPDATE loyalty_customers SET minimum_vip_tier_id = NULL WHERE store_id = ? AND minimum_vip_tier_id = ?").run(storeId, vipTierId);
      db.prepare("UPDATE loyalty_earning_rules SET minimum_vip_tier_id = NULL WHERE store_id = ? AND minimum_vip_tier_id = ?").run(storeId, vipTierId);
      db.prepare("UPDATE loyalty_redemption_rules SET minimum_vip_tier_id = NULL WHERE store_id = ? AND minimum_vip_tier_id = ?").run(storeId, vipTierId);
      return db.prepare("DELETE FROM loyalty_vip_tiers WHERE store_id = ? AND vip_tier_id = ?").run(storeId, vipTierId).changes === 1;
    },
    /** IDs of a store's enrolled customers (tier recalculation after a tier edit). */
    enrolledCustomerIds(storeId: string): string[] {
      return db.prepare<[string], { id: string }>("SELECT loyalty_customer_id AS id FROM loyalty_customers WHERE store_id = ? AND status = 'enrolled'").all(storeId).map((r) => r.id);
    },
    /**
     * A page of a store's customers, newest first (keyset on created_ms, loyalty_customer_id), optionally
     * of one status and/or whose e-mail or platform customer ID contains `search`.
     */
    customersPage(storeId: string, q: { status?: LoyaltyCustomerStatus; search?: string; after?: [number, string]; limit: number }): CustomerRow[] {
      // Case-insensitive on both engines (PostgreSQL's LIKE is case-sensitive): lower() on both sides.
      const like = q.search ? `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      // CAST(? AS ...) IS NULL: PostgreSQL cannot type a bare `? IS NULL` parameter.
      return db.prepare(
        `SELECT * FROM loyalty_customers WHERE store_id = ?
           AND (CAST(? AS TEXT) IS NULL OR status = ?)
           AND (CAST(? AS TEXT) IS NULL OR lower(email) LIKE ? ESCAPE '\\' OR lower(platform_customer_id) LIKE ? ESCAPE '\\')
           AND (CAST(? AS BIGINT) IS NULL OR created_ms < ? OR (created_ms = ? AND loyalty_customer_id < ?))
         ORDER BY created_ms DESC, loyalty_customer_id DESC LIMIT ?`,
      ).all(
        storeId, q.status ?? null, q.status ?? null, like, like, like,
        q.after?.[0] ?? null, q.after?.[0] ?? null, q.after?.[0] ?? null, q.after?.[1] ?? null, q.limit,
      ) as CustomerRow[];
    },

    /** Append a transaction (triggers update the balance and refuse a broken chain or a negative balance). */
    insertTransaction(t: NewTransaction): void {
      insertTx.run({
        earningRuleId: null, redemptionRuleId: null, awardKey: null, orderId: null, couponCode: null, ...t,
      });
    },
    getTransaction: (storeId: string, transactionId: string): TransactionRow | undefined => getTx.get(storeId, transactionId),
    getTransactionByOrder: (storeId: string, orderId: string): TransactionRow | undefined => getTxByOrder.get(storeId, orderId),
    hasAward: (storeId: string, loyaltyCustomerId: string, awardKey: string): boolean => hasAward.get(storeId, loyaltyCustomerId, awardKey) !== undefined,
    /** A page of a customer's transactions, newest first, strictly before `beforeSeq`. */
    transactionsPage: (storeId: string, loyaltyCustomerId: string, beforeSeq: number, limit: number): TransactionRow[] =>
      pageTx.all(storeId, loyaltyCustomerId, beforeSeq, limit),
    /** Published reviews written with the customer's e-mail that earned nothing yet. */
    unawardedReviews: (storeId: string, email: string, loyaltyCustomerId: string): ReviewForEarning[] =>
      unawardedReviews.all(storeId, email.toLowerCase(), storeId, loyaltyCustomerId),

    /**
     * The ledger check of one customer: stored balance, sum of transactions, last balance_after and the
     * count of rows with a negative balance_after. Consistent when balance = sum = (last ?? 0) and negative = 0.
     */
    ledgerCheck(storeId: string, loyaltyCustomerId: string): { balance: number; sum: number; last: number | null; negative: number } | undefined {
      return ledgerSum.get(storeId, loyaltyCustomerId);
    },
    /** Customers of a store whose balance differs from the sum of their transactions (should be empty). */
    ledgerMismatches(storeId: string): { loyaltyCustomerId: string; balance: number; sum: number }[] {
      return db.prepare<[string], { id: string; balance: number; sum: number }>(
        `SELECT c.loyalty_customer_id AS id, c.balance, COALESCE(SUM(t.points), 0) AS sum
           FROM loyalty_customers c LEFT JOIN loyalty_transactions t ON t.store_id = c.store_id AND t.loyalty_customer_id = c.loyalty_customer_id
          WHERE c.store_id = ? GROUP BY c.loyalty_customer_id HAVING c.balance != COALESCE(SUM(t.points), 0)`,
      ).all(storeId).map((r) => ({ loyaltyCustomerId: r.id, balance: r.balance, sum: r.sum }));
    },
  };
}
export type LoyaltyRepo = ReturnType<typeof loyaltyRepo>;

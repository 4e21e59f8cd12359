/**
 * Loyalty program SQL (bound parameters only; the store ID in every WHERE). Every function returns a promise. Rules live in
 * loyalty.service.ts; this module reads and writes rows. The ledger's invariants (append-only,
 * balance = sum of transactions, no negative balance) are enforced by triggers (migration 040) and
 * checked by `ledgerCheck`.
 */
import { all, dialect, forUpdate, one, run, sql, values, type Db } from "../db/database.ts";
import type { EarningRuleType, LoyaltyCustomerStatus, RedemptionRuleType, TransactionDetails, TransactionType } from "../contract/loyalty.ts";

export type ProgramRow = {
  store_id: string;
  platform_adapter: string;
  platform_secret: string;
  button_text: string;
  policy_html: string;
  policy_template: string;
  privacy_policy_url: string;
  terms_url: string;
  policy_version: string;
  merchant_policies_json: string | null;
  updated_ms: number;
  /** 1 = on, 0 = turned off by the merchant (the storefront API then answers as without a program). */
  enabled: number;
  /** When the platform secret was last generated in the admin (ms), or null (set up by a seeder or test). */
  platform_secret_ms: number | null;
};
export type CustomerRow = {
  loyalty_customer_id: string;
  store_id: string;
  platform_customer_id: string;
  email: string | null;
  status: LoyaltyCustomerStatus;
  balance: number;
  lifetime_points: number;
  vip_tier_id: string | null;
  minimum_vip_tier_id: string | null;
  enrollment_channel: string | null;
  legal_version_accepted: string | null;
  enrolled_ms: number | null;
  created_ms: number;
};
export type VipTierRow = { vip_tier_id: string; store_id: string; name: string; points_threshold: number; points_multiplier: number; perks_json: string | null };
export type EarningRuleRow = {
  earning_rule_id: string;
  store_id: string;
  type: EarningRuleType;
  name: string;
  points: number;
  points_per_currency_unit: number | null;
  enabled: number;
  minimum_vip_tier_id: string | null;
  position: number;
};
export type RedemptionRuleRow = {
  redemption_rule_id: string;
  store_id: string;
  type: RedemptionRuleType;
  name: string;
  points_cost: number;
  reward_description: string;
  reward_value: number;
  enabled: number;
  minimum_vip_tier_id: string | null;
  position: number;
};
export type TransactionRow = {
  seq: number;
  transaction_id: string;
  store_id: string;
  loyalty_customer_id: string;
  type: TransactionType;
  points: number;
  balance_after: number;
  description: string;
  earning_rule_id: string | null;
  redemption_rule_id: string | null;
  award_key: string | null;
  order_id: string | null;
  coupon_code: string | null;
  /** JSON of the values the transaction's text needs (TransactionDetails); null for transactions written before migration 109. */
  details: string | null;
  created_ms: number;
};
export type NewTransaction = {
  transactionId: string;
  storeId: string;
  loyaltyCustomerId: string;
  type: TransactionType;
  points: number;
  balanceAfter: number;
  description: string;
  earningRuleId?: string | null;
  redemptionRuleId?: string | null;
  awardKey?: string | null;
  orderId?: string | null;
  couponCode?: string | null;
  /** The values the transaction's text needs (docs/loyalty.md "Points history"). */
  details?: TransactionDetails;
  createdMs: number;
};
export type ReviewForEarning = { review_id: string; media_count: number; product_name: string | null };

/** Create the loyalty data module over `db`. */
export function loyaltyRepo(db: Db) {
  const changed = async (q: Parameters<typeof run>[1]): Promise<boolean> => (await run(db, q)).changes === 1;

  return {
    getProgram: (storeId: string): Promise<ProgramRow | undefined> => one<ProgramRow>(db, sql`SELECT * FROM loyalty_programs WHERE store_id = ${storeId}`),
    /** Lock a store's program row until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite's write transaction holds the write lock). */
    async lockProgram(storeId: string): Promise<void> {
      await one(db, sql`SELECT store_id FROM loyalty_programs WHERE store_id = ${storeId}${forUpdate(db)}`);
    },
    /** Insert or replace a store's program row (secret and legal policies). */
    async upsertProgram(p: Omit<ProgramRow, "updated_ms" | "platform_adapter" | "enabled" | "platform_secret_ms"> & { platform_adapter?: string }): Promise<void> {
      const r = { platform_adapter: "hs256", ...p, updated_ms: Date.now() };
      await run(
        db,
        sql`INSERT INTO loyalty_programs (store_id, platform_adapter, platform_secret, button_text, policy_html, policy_template, privacy_policy_url, terms_url, policy_version, merchant_policies_json, updated_ms)
         VALUES (${r.store_id}, ${r.platform_adapter}, ${r.platform_secret}, ${r.button_text}, ${r.policy_html}, ${r.policy_template}, ${r.privacy_policy_url}, ${r.terms_url}, ${r.policy_version}, ${r.merchant_policies_json}, ${r.updated_ms})
         ON CONFLICT (store_id) DO UPDATE SET platform_adapter = excluded.platform_adapter, platform_secret = excluded.platform_secret,
           button_text = excluded.button_text, policy_html = excluded.policy_html, policy_template = excluded.policy_template,
           privacy_policy_url = excluded.privacy_policy_url, terms_url = excluded.terms_url, policy_version = excluded.policy_version,
           merchant_policies_json = excluded.merchant_policies_json, updated_ms = excluded.updated_ms`,
      );
    },

    /** Turn a store's program on (true) or off. @returns false when the store has no program. */
    setProgramEnabled(storeId: string, enabled: boolean): Promise<boolean> {
      return changed(sql`UPDATE loyalty_programs SET enabled = ${enabled ? 1 : 0}, updated_ms = ${Date.now()} WHERE store_id = ${storeId}`);
    },
    /** Replace a store's platform secret, generated at `nowMs`. @returns false when the store has no program. */
    setPlatformSecret(storeId: string, secret: string, nowMs: number): Promise<boolean> {
      return changed(sql`UPDATE loyalty_programs SET platform_secret = ${secret}, platform_secret_ms = ${nowMs}, updated_ms = ${nowMs} WHERE store_id = ${storeId}`);
    },
    /**
     * Mark a review as incentivized (its reviewer received points or a coupon for it); called in the
     * transaction that awards them. @returns false when the store has no such review.
     */
    markReviewIncentivized(storeId: string, reviewId: string): Promise<boolean> {
      return changed(sql`UPDATE reviews SET is_incentivized = 1 WHERE store_id = ${storeId} AND review_id = ${reviewId} AND is_incentivized = 0`);
    },

    getCustomer: (storeId: string, loyaltyCustomerId: string): Promise<CustomerRow | undefined> =>
      one<CustomerRow>(db, sql`SELECT * FROM loyalty_customers WHERE store_id = ${storeId} AND loyalty_customer_id = ${loyaltyCustomerId}`),
    /**
     * The customer row, locked until the transaction ends (PostgreSQL `FOR UPDATE`; on SQLite the write
     * transaction already holds the database's write lock). Call inside `transaction(db, …)` before a
     * read-then-write of the customer's ledger or status: writers of one customer run one after another on every node.
     */
    lockCustomer: (storeId: string, loyaltyCustomerId: string): Promise<CustomerRow | undefined> =>
      one<CustomerRow>(db, sql`SELECT * FROM loyalty_customers WHERE store_id = ${storeId} AND loyalty_customer_id = ${loyaltyCustomerId}${forUpdate(db)}`),
    getCustomerByPlatformId: (storeId: string, platformCustomerId: string): Promise<CustomerRow | undefined> =>
      one<CustomerRow>(db, sql`SELECT * FROM loyalty_customers WHERE store_id = ${storeId} AND platform_customer_id = ${platformCustomerId}`),
    getCustomerByEmail: (storeId: string, email: string): Promise<CustomerRow | undefined> =>
      one<CustomerRow>(db, sql`SELECT * FROM loyalty_customers WHERE store_id = ${storeId} AND email = ${email.toLowerCase()} ORDER BY created_ms LIMIT 1`),
    /** Insert a customer unless the platform customer ID exists already (first login). */
    async insertCustomer(c: { loyaltyCustomerId: string; storeId: string; platformCustomerId: string; email: string | null; status?: LoyaltyCustomerStatus }): Promise<void> {
      await run(
        db,
        sql`INSERT INTO loyalty_customers (loyalty_customer_id, store_id, platform_customer_id, email, status, created_ms)
         VALUES (${c.loyaltyCustomerId}, ${c.storeId}, ${c.platformCustomerId}, ${c.email?.toLowerCase() ?? null}, ${c.status ?? "pending"}, ${Date.now()})
         ON CONFLICT (store_id, platform_customer_id) DO NOTHING`,
      );
    },
    async updateEmail(storeId: string, loyaltyCustomerId: string, email: string): Promise<void> {
      await run(db, sql`UPDATE loyalty_customers SET email = ${email.toLowerCase()} WHERE store_id = ${storeId} AND loyalty_customer_id = ${loyaltyCustomerId}`);
    },
    /** pending → enrolled (only from pending). @returns true when this call enrolled the customer. */
    enrol(storeId: string, loyaltyCustomerId: string, channel: string, version: string, tierId: string | null): Promise<boolean> {
      return changed(sql`UPDATE loyalty_customers SET status = 'enrolled', enrollment_channel = ${channel}, legal_version_accepted = ${version}, enrolled_ms = ${Date.now()}, vip_tier_id = ${tierId}
          WHERE store_id = ${storeId} AND loyalty_customer_id = ${loyaltyCustomerId} AND status = 'pending'`);
    },
    async setStatus(storeId: string, loyaltyCustomerId: string, status: LoyaltyCustomerStatus): Promise<void> {
      await run(db, sql`UPDATE loyalty_customers SET status = ${status} WHERE store_id = ${storeId} AND loyalty_customer_id = ${loyaltyCustomerId}`);
    },
    async setTier(storeId: string, loyaltyCustomerId: string, tierId: string | null): Promise<void> {
      await run(db, sql`UPDATE loyalty_customers SET vip_tier_id = ${tierId} WHERE store_id = ${storeId} AND loyalty_customer_id = ${loyaltyCustomerId}`);
    },
    async setMinimumTier(storeId: string, loyaltyCustomerId: string, tierId: string | null): Promise<void> {
      await run(db, sql`UPDATE loyalty_customers SET minimum_vip_tier_id = ${tierId} WHERE store_id = ${storeId} AND loyalty_customer_id = ${loyaltyCustomerId}`);
    },
    /** IDs of a store's customers that may earn (not blocked) and have an e-mail (review catch-up). */
    customersWithEmail(storeId: string): Promise<string[]> {
      return values<string>(db, sql`SELECT loyalty_customer_id AS id FROM loyalty_customers WHERE store_id = ${storeId} AND email IS NOT NULL AND status != 'blocked'`);
    },

    vipTiers: (storeId: string): Promise<VipTierRow[]> => all<VipTierRow>(db, sql`SELECT * FROM loyalty_vip_tiers WHERE store_id = ${storeId} ORDER BY points_threshold`),
    async insertVipTier(t: VipTierRow): Promise<void> {
      await run(
        db,
        sql`INSERT INTO loyalty_vip_tiers (vip_tier_id, store_id, name, points_threshold, points_multiplier, perks_json)
        VALUES (${t.vip_tier_id}, ${t.store_id}, ${t.name}, ${t.points_threshold}, ${t.points_multiplier}, ${t.perks_json})`,
      );
    },
    earningRules: (storeId: string): Promise<EarningRuleRow[]> => all<EarningRuleRow>(db, sql`SELECT * FROM loyalty_earning_rules WHERE store_id = ${storeId} ORDER BY position, earning_rule_id`),
    async insertEarningRule(r: EarningRuleRow): Promise<void> {
      await run(
        db,
        sql`INSERT INTO loyalty_earning_rules (earning_rule_id, store_id, type, name, points, points_per_currency_unit, enabled, minimum_vip_tier_id, position)
         VALUES (${r.earning_rule_id}, ${r.store_id}, ${r.type}, ${r.name}, ${r.points}, ${r.points_per_currency_unit}, ${r.enabled}, ${r.minimum_vip_tier_id}, ${r.position})`,
      );
    },
    redemptionRules: (storeId: string): Promise<RedemptionRuleRow[]> =>
      all<RedemptionRuleRow>(db, sql`SELECT * FROM loyalty_redemption_rules WHERE store_id = ${storeId} ORDER BY position, redemption_rule_id`),
    getRedemptionRule: (storeId: string, redemptionRuleId: string): Promise<RedemptionRuleRow | undefined> =>
      one<RedemptionRuleRow>(db, sql`SELECT * FROM loyalty_redemption_rules WHERE store_id = ${storeId} AND redemption_rule_id = ${redemptionRuleId}`),
    async insertRedemptionRule(r: RedemptionRuleRow): Promise<void> {
      await run(
        db,
        sql`INSERT INTO loyalty_redemption_rules (redemption_rule_id, store_id, type, name, points_cost, reward_description, reward_value, enabled, minimum_vip_tier_id, position)
         VALUES (${r.redemption_rule_id}, ${r.store_id}, ${r.type}, ${r.name}, ${r.points_cost}, ${r.reward_description}, ${r.reward_value}, ${r.enabled}, ${r.minimum_vip_tier_id}, ${r.position})`,
      );
    },

    /** Merchant edit of an earning rule's points. @returns false when the store has no such rule. */
    updateEarningRule(storeId: string, earningRuleId: string, r: { points: number; pointsPerCurrencyUnit: number | null; enabled: boolean }): Promise<boolean> {
      return changed(sql`UPDATE loyalty_earning_rules SET points = ${r.points}, points_per_currency_unit = ${r.pointsPerCurrencyUnit}, enabled = ${r.enabled ? 1 : 0}
        WHERE store_id = ${storeId} AND earning_rule_id = ${earningRuleId}`);
    },
    /** Merchant edit of a redemption rule's cost. @returns false when the store has no such rule. */
    updateRedemptionRule(storeId: string, redemptionRuleId: string, r: { pointsCost: number; enabled: boolean }): Promise<boolean> {
      return changed(sql`UPDATE loyalty_redemption_rules SET points_cost = ${r.pointsCost}, enabled = ${r.enabled ? 1 : 0} WHERE store_id = ${storeId} AND redemption_rule_id = ${redemptionRuleId}`);
    },
    /** Merchant edit of a VIP tier. @returns false when the store has no such tier. Throws a unique violation for a threshold taken. */
    updateVipTier(storeId: string, vipTierId: string, t: { pointsThreshold: number; pointsMultiplier: number }): Promise<boolean> {
      return changed(sql`UPDATE loyalty_vip_tiers SET points_threshold = ${t.pointsThreshold}, points_multiplier = ${t.pointsMultiplier} WHERE store_id = ${storeId} AND vip_tier_id = ${vipTierId}`);
    },
    /** The position after the last earning rule / redemption rule of a store (new rules go last). */
    async nextPosition(storeId: string, table: "earning" | "redemption"): Promise<number> {
      const row = await one<{ n: number }>(
        db,
        table === "earning"
          ? sql`SELECT COALESCE(MAX(position) + 1, 0) AS n FROM loyalty_earning_rules WHERE store_id = ${storeId}`
          : sql`SELECT COALESCE(MAX(position) + 1, 0) AS n FROM loyalty_redemption_rules WHERE store_id = ${storeId}`,
      );
      return row!.n;
    },
    /** Merchant edit of every field of an earning rule but its type. @returns false when the store has no such rule. */
    editEarningRule(storeId: string, earningRuleId: string, r: { name: string; points: number; pointsPerCurrencyUnit: number | null; enabled: boolean }): Promise<boolean> {
      return changed(sql`UPDATE loyalty_earning_rules SET name = ${r.name}, points = ${r.points}, points_per_currency_unit = ${r.pointsPerCurrencyUnit}, enabled = ${r.enabled ? 1 : 0}
        WHERE store_id = ${storeId} AND earning_rule_id = ${earningRuleId}`);
    },
    /** Merchant edit of every field of a redemption rule but its type. @returns false when the store has no such rule. */
    editRedemptionRule(storeId: string, redemptionRuleId: string, r: { name: string; pointsCost: number; rewardDescription: string; rewardValue: number; enabled: boolean }): Promise<boolean> {
      return changed(sql`UPDATE loyalty_redemption_rules SET name = ${r.name}, points_cost = ${r.pointsCost}, reward_description = ${r.rewardDescription}, reward_value = ${r.rewardValue}, enabled = ${r.enabled ? 1 : 0}
        WHERE store_id = ${storeId} AND redemption_rule_id = ${redemptionRuleId}`);
    },
    /** Merchant edit of every field of a VIP tier. @returns false when the store has no such tier. */
    editVipTier(storeId: string, vipTierId: string, t: { name: string; pointsThreshold: number; pointsMultiplier: number; perks: string[] }): Promise<boolean> {
      return changed(sql`UPDATE loyalty_vip_tiers SET name = ${t.name}, points_threshold = ${t.pointsThreshold}, points_multiplier = ${t.pointsMultiplier}, perks_json = ${t.perks.length ? JSON.stringify(t.perks) : null}
        WHERE store_id = ${storeId} AND vip_tier_id = ${vipTierId}`);
    },
    /** Remove an earning rule (past transactions keep their description). @returns false when the store has no such rule. */
    deleteEarningRule(storeId: string, earningRuleId: string): Promise<boolean> {
      return changed(sql`DELETE FROM loyalty_earning_rules WHERE store_id = ${storeId} AND earning_rule_id = ${earningRuleId}`);
    },
    /** Remove a redemption rule (issued coupons stay in the ledger). @returns false when the store has no such rule. */
    deleteRedemptionRule(storeId: string, redemptionRuleId: string): Promise<boolean> {
      return changed(sql`DELETE FROM loyalty_redemption_rules WHERE store_id = ${storeId} AND redemption_rule_id = ${redemptionRuleId}`);
    },
    /**
     * Remove a VIP tier: customers in it or with it as minimum tier lose that reference, and rules that
     * required it are open to every tier; recalculate the tiers afterwards. @returns false when the store has no such tier.
     */
    async deleteVipTier(storeId: string, vipTierId: string): Promise<boolean> {
      await run(db, sql`UPDATE loyalty_customers SET vip_tier_id = NULL WHERE store_id = ${storeId} AND vip_tier_id = ${vipTierId}`);
      await run(db, sql`UPDATE loyalty_customers SET minimum_vip_tier_id = NULL WHERE store_id = ${storeId} AND minimum_vip_tier_id = ${vipTierId}`);
      await run(db, sql`UPDATE loyalty_earning_rules SET minimum_vip_tier_id = NULL WHERE store_id = ${storeId} AND minimum_vip_tier_id = ${vipTierId}`);
      await run(db, sql`UPDATE loyalty_redemption_rules SET minimum_vip_tier_id = NULL WHERE store_id = ${storeId} AND minimum_vip_tier_id = ${vipTierId}`);
      return changed(sql`DELETE FROM loyalty_vip_tiers WHERE store_id = ${storeId} AND vip_tier_id = ${vipTierId}`);
    },
    /** IDs of a store's enrolled customers (tier recalculation after a tier edit). */
    enrolledCustomerIds(storeId: string): Promise<string[]> {
      return values<string>(db, sql`SELECT loyalty_customer_id AS id FROM loyalty_customers WHERE store_id = ${storeId} AND status = 'enrolled'`);
    },
    /**
     * A page of a store's customers, newest first (keyset on created_ms, loyalty_customer_id), optionally
     * of one status and/or whose e-mail or platform customer ID contains `search`.
     */
    customersPage(storeId: string, q: { status?: LoyaltyCustomerStatus; search?: string; after?: [number, string]; limit: number }): Promise<CustomerRow[]> {
      // Case-insensitive on both engines (PostgreSQL's LIKE is case-sensitive): lower() on both sides.
      const like = q.search ? `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      return all<CustomerRow>(
        db,
        sql`SELECT * FROM loyalty_customers WHERE store_id = ${storeId}
           ${q.status ? sql`AND status = ${q.status}` : sql``}
           ${like !== null ? sql`AND (lower(email) LIKE ${like} ESCAPE '\\' OR lower(platform_customer_id) LIKE ${like} ESCAPE '\\')` : sql``}
           ${q.after ? sql`AND (created_ms < ${q.after[0]} OR (created_ms = ${q.after[0]} AND loyalty_customer_id < ${q.after[1]}))` : sql``}
         ORDER BY created_ms DESC, loyalty_customer_id DESC LIMIT ${q.limit}`,
      );
    },

    /** Append a transaction (triggers update the balance and refuse a broken chain or a negative balance). */
    async insertTransaction(t: NewTransaction): Promise<void> {
      await run(
        db,
        sql`INSERT INTO loyalty_transactions (transaction_id, store_id, loyalty_customer_id, type, points, balance_after, description,
         earning_rule_id, redemption_rule_id, award_key, order_id, coupon_code, details, created_ms)
       VALUES (${t.transactionId}, ${t.storeId}, ${t.loyaltyCustomerId}, ${t.type}, ${t.points}, ${t.balanceAfter}, ${t.description},
         ${t.earningRuleId ?? null}, ${t.redemptionRuleId ?? null}, ${t.awardKey ?? null}, ${t.orderId ?? null}, ${t.couponCode ?? null},
         ${t.details ? JSON.stringify(t.details) : null}, ${t.createdMs})`,
      );
    },
    getTransaction: (storeId: string, transactionId: string): Promise<TransactionRow | undefined> =>
      one<TransactionRow>(db, sql`SELECT * FROM loyalty_transactions WHERE store_id = ${storeId} AND transaction_id = ${transactionId}`),
    getTransactionByOrder: (storeId: string, orderId: string): Promise<TransactionRow | undefined> =>
      one<TransactionRow>(db, sql`SELECT * FROM loyalty_transactions WHERE store_id = ${storeId} AND order_id = ${orderId}`),
    hasAward: async (storeId: string, loyaltyCustomerId: string, awardKey: string): Promise<boolean> =>
      (await one(db, sql`SELECT 1 AS one FROM loyalty_transactions WHERE store_id = ${storeId} AND loyalty_customer_id = ${loyaltyCustomerId} AND award_key = ${awardKey}`)) !== undefined,
    /** A page of a customer's transactions, newest first, strictly before `beforeSeq`. */
    transactionsPage: (storeId: string, loyaltyCustomerId: string, beforeSeq: number, limit: number): Promise<TransactionRow[]> =>
      all<TransactionRow>(
        db,
        sql`SELECT * FROM loyalty_transactions WHERE store_id = ${storeId} AND loyalty_customer_id = ${loyaltyCustomerId} AND seq < ${beforeSeq} ORDER BY seq DESC LIMIT ${limit}`,
      ),
    /** Published reviews written with the customer's e-mail that earned nothing yet. */
    unawardedReviews: (storeId: string, email: string, loyaltyCustomerId: string): Promise<ReviewForEarning[]> =>
      all<ReviewForEarning>(
        db,
        sql`SELECT r.review_id, r.media_count, p.name AS product_name
         FROM reviews r ${
           // INDEXED BY: without it the planner may pick (store_id, status) and scan every published review of
           // the store on each customer read; the e-mail index finds the customer's few reviews directly.
           // (PostgreSQL has no index hints; its planner picks the e-mail index by its statistics.)
           dialect(db) === "postgres" ? sql`` : sql`INDEXED BY loyalty_reviews_email`
         } LEFT JOIN products p ON p.store_id = r.store_id AND p.product_id = r.product_id
        WHERE r.store_id = ${storeId} AND lower(r.reviewer_email) = ${email.toLowerCase()} AND r.reviewer_email IS NOT NULL AND r.status = 'published'
          AND NOT EXISTS (SELECT 1 FROM loyalty_transactions t
                           WHERE t.store_id = ${storeId} AND t.loyalty_customer_id = ${loyaltyCustomerId} AND t.award_key = 'review:' || r.review_id)
        ORDER BY r.created_ms, r.review_id`,
      ),

    /**
     * The ledger check of one customer: stored balance, sum of transactions, last balance_after and the
     * count of rows with a negative balance_after. Consistent when balance = sum = (last ?? 0) and negative = 0.
     */
    ledgerCheck(storeId: string, loyaltyCustomerId: string): Promise<{ balance: number; sum: number; last: number | null; negative: number } | undefined> {
      return one(
        db,
        sql`SELECT c.balance AS balance,
            (SELECT COALESCE(SUM(points), 0) FROM loyalty_transactions WHERE store_id = c.store_id AND loyalty_customer_id = c.loyalty_customer_id) AS sum,
            (SELECT balance_after FROM loyalty_transactions WHERE store_id = c.store_id AND loyalty_customer_id = c.loyalty_customer_id ORDER BY seq DESC LIMIT 1) AS last,
            (SELECT count(*) FROM loyalty_transactions WHERE store_id = c.store_id AND loyalty_customer_id = c.loyalty_customer_id AND balance_after < 0) AS negative
       FROM loyalty_customers c WHERE c.store_id = ${storeId} AND c.loyalty_customer_id = ${loyaltyCustomerId}`,
      );
    },
    /** Customers of a store whose balance differs from the sum of their transactions (should be empty). */
    async ledgerMismatches(storeId: string): Promise<{ loyaltyCustomerId: string; balance: number; sum: number }[]> {
      const rows = await all<{ id: string; balance: number; sum: number }>(
        db,
        sql`SELECT c.loyalty_customer_id AS id, c.balance, COALESCE(SUM(t.points), 0) AS sum
           FROM loyalty_customers c LEFT JOIN loyalty_transactions t ON t.store_id = c.store_id AND t.loyalty_customer_id = c.loyalty_customer_id
          WHERE c.store_id = ${storeId} GROUP BY c.loyalty_customer_id, c.balance HAVING c.balance != COALESCE(SUM(t.points), 0)`,
      );
      return rows.map((r) => ({ loyaltyCustomerId: r.id, balance: r.balance, sum: r.sum }));
    },
  };
}
export type LoyaltyRepo = ReturnType<typeof loyaltyRepo>;

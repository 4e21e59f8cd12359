/**
 * SQL of referrals (migration 105, docs/loyalty.md "Referrals"): the store's referral program, the senders'
 * shareable links, the friends' discounts and the senders' rewards. Every statement names the store, except the
 * job's scan of pending coupon rewards across stores. Times are epoch ms; e-mail addresses are stored lower-cased.
 */
import { all, one, run, sql, type Db } from "../db/database.ts";

export type ReferralDiscountType = "fixed-amount-coupon" | "percentage-coupon";
export type SenderRewardType = "points" | ReferralDiscountType;
export type ReferralProgramRow = {
  store_id: string;
  enabled: number;
  friend_discount_type: ReferralDiscountType;
  friend_discount_value: number;
  friend_minimum_order: number | null;
  sender_reward_type: SenderRewardType;
  sender_reward_value: number;
  updated_ms: number;
};
export type ReferralSenderRow = { referral_sender_id: string; store_id: string; email: string; created_ms: number };
export type ReferralFriendRow = {
  code: string;
  store_id: string;
  referral_sender_id: string;
  email: string;
  discount_type: ReferralDiscountType;
  discount_value: number;
  minimum_order: number | null;
  platform: string | null;
  platform_discount_id: string | null;
  state: "pending" | "created";
  created_ms: number;
};
export type ReferralRewardRow = {
  store_id: string;
  friend_code: string;
  order_id: string;
  referral_sender_id: string;
  reward_type: SenderRewardType;
  reward_value: number;
  loyalty_customer_id: string | null;
  transaction_id: string | null;
  coupon_code: string | null;
  state: "pending" | "awarded" | "reversed";
  created_ms: number;
  updated_ms: number;
};
export type ReferralEventType = "referral.friend_rewarded" | "referral.sender_rewarded";

/** Create the referrals data module over `db`. Every function returns a promise. */
export function referralsRepo(db: Db) {
  return {
    program: (storeId: string): Promise<ReferralProgramRow | undefined> => one<ReferralProgramRow>(db, sql`SELECT * FROM referral_programs WHERE store_id = ${storeId}`),
    /** Insert or replace the store's program (one row per store: ON CONFLICT on the key). */
    async saveProgram(p: ReferralProgramRow): Promise<void> {
      await run(
        db,
        sql`INSERT INTO referral_programs (store_id, enabled, friend_discount_type, friend_discount_value, friend_minimum_order, sender_reward_type, sender_reward_value, updated_ms)
        VALUES (${p.store_id}, ${p.enabled}, ${p.friend_discount_type}, ${p.friend_discount_value}, ${p.friend_minimum_order}, ${p.sender_reward_type}, ${p.sender_reward_value}, ${p.updated_ms})
        ON CONFLICT (store_id) DO UPDATE SET enabled = excluded.enabled, friend_discount_type = excluded.friend_discount_type, friend_discount_value = excluded.friend_discount_value,
          friend_minimum_order = excluded.friend_minimum_order, sender_reward_type = excluded.sender_reward_type, sender_reward_value = excluded.sender_reward_value, updated_ms = excluded.updated_ms`,
      );
    },

    /** The sender with this e-mail, made on first call. Unique (store, email) + ON CONFLICT DO NOTHING: one link per sender on every node. */
    async ensureSender(storeId: string, email: string, newId: string, nowMs: number): Promise<ReferralSenderRow> {
      await run(
        db,
        sql`INSERT INTO referral_senders (referral_sender_id, store_id, email, created_ms) VALUES (${newId}, ${storeId}, ${email}, ${nowMs})
        ON CONFLICT (store_id, email) DO NOTHING`,
      );
      return (await one<ReferralSenderRow>(db, sql`SELECT * FROM referral_senders WHERE store_id = ${storeId} AND email = ${email}`))!;
    },
    /** A sender by ID; none once the sender's data was erased (their link is retired: docs/privacy.md "What is covered"). */
    sender: (storeId: string, referralSenderId: string): Promise<ReferralSenderRow | undefined> =>
      one<ReferralSenderRow>(db, sql`SELECT * FROM referral_senders WHERE store_id = ${storeId} AND referral_sender_id = ${referralSenderId} AND email NOT LIKE 'erased:%'`),
    /** A sender by ID alone (the hosted page's link names no store); none once erased, as `sender`. */
    senderById: (referralSenderId: string): Promise<ReferralSenderRow | undefined> =>
      one<ReferralSenderRow>(db, sql`SELECT * FROM referral_senders WHERE referral_sender_id = ${referralSenderId} AND email NOT LIKE 'erased:%'`),

    friendByEmail: (storeId: string, email: string): Promise<ReferralFriendRow | undefined> =>
      one<ReferralFriendRow>(db, sql`SELECT * FROM referral_friends WHERE store_id = ${storeId} AND email = ${email}`),
    /** The friends' discounts among `codes` (upper-cased codes of an order). */
    friendsByCodes: (storeId: string, codes: string[]): Promise<ReferralFriendRow[]> =>
      codes.length === 0 ? Promise.resolve([]) : all<ReferralFriendRow>(db, sql`SELECT * FROM referral_friends WHERE store_id = ${storeId} AND state = 'created' AND code IN (${sql.join(codes)})`),
    /**
     * Reserve the friend's discount (pending, before the platform is asked). Unique (store, email) + ON CONFLICT DO
     * NOTHING RETURNING: @returns false when this friend already has one (or another node reserved it first).
     */
    reserveFriend: async (f: Omit<ReferralFriendRow, "platform" | "platform_discount_id" | "state">): Promise<boolean> =>
      (
        await all(
          db,
          sql`INSERT INTO referral_friends (code, store_id, referral_sender_id, email, discount_type, discount_value, minimum_order, state, created_ms)
        VALUES (${f.code}, ${f.store_id}, ${f.referral_sender_id}, ${f.email}, ${f.discount_type}, ${f.discount_value}, ${f.minimum_order}, 'pending', ${f.created_ms})
        ON CONFLICT (store_id, email) DO NOTHING RETURNING code`,
        )
      ).length === 1,
    /** pending → created (conditional UPDATE). */
    confirmFriend: async (storeId: string, code: string, platform: string, discountId: string | null): Promise<boolean> =>
      (
        await run(
          db,
          sql`UPDATE referral_friends SET state = 'created', platform = ${platform}, platform_discount_id = ${discountId} WHERE store_id = ${storeId} AND code = ${code} AND state = 'pending'`,
        )
      ).changes === 1,
    /** Remove a pending reservation (the platform failed, or a crash left it older than the caller's limit). */
    async dropPendingFriend(storeId: string, code: string): Promise<void> {
      await run(db, sql`DELETE FROM referral_friends WHERE store_id = ${storeId} AND code = ${code} AND state = 'pending'`);
    },
    /** Whether the store has an order from `email` (a friend's discount is for new customers). */
    hasOrderFrom: async (storeId: string, email: string): Promise<boolean> =>
      (await one(db, sql`SELECT 1 AS one FROM order_headers WHERE store_id = ${storeId} AND email = ${email} LIMIT 1`)) !== undefined,
    /** Whether the store has an order from `email` other than `orderId` placed before `beforeMs`. */
    hasEarlierOrder: async (storeId: string, email: string, orderId: string, beforeMs: number): Promise<boolean> =>
      (await one(db, sql`SELECT 1 AS one FROM order_headers WHERE store_id = ${storeId} AND email = ${email} AND order_id <> ${orderId} AND ordered_ms < ${beforeMs} LIMIT 1`)) !== undefined,

    /**
     * Record the sender's reward for a friend's order. Exactly-once across nodes: primary key (store, friend code) +
     * ON CONFLICT DO NOTHING RETURNING. @returns false when this friend already brought a reward.
     */
    insertReward: async (r: Omit<ReferralRewardRow, "updated_ms">): Promise<boolean> =>
      (
        await all(
          db,
          sql`INSERT INTO referral_rewards (store_id, friend_code, order_id, referral_sender_id, reward_type, reward_value, loyalty_customer_id, transaction_id, coupon_code, state, created_ms, updated_ms)
        VALUES (${r.store_id}, ${r.friend_code}, ${r.order_id}, ${r.referral_sender_id}, ${r.reward_type}, ${r.reward_value}, ${r.loyalty_customer_id}, ${r.transaction_id}, ${r.coupon_code}, ${r.state}, ${r.created_ms}, ${r.created_ms})
        ON CONFLICT (store_id, friend_code) DO NOTHING RETURNING friend_code`,
        )
      ).length === 1,
    async setRewardTransaction(storeId: string, friendCode: string, transactionId: string): Promise<void> {
      await run(db, sql`UPDATE referral_rewards SET transaction_id = ${transactionId} WHERE store_id = ${storeId} AND friend_code = ${friendCode}`);
    },
    reward: (storeId: string, friendCode: string): Promise<ReferralRewardRow | undefined> =>
      one<ReferralRewardRow>(db, sql`SELECT * FROM referral_rewards WHERE store_id = ${storeId} AND friend_code = ${friendCode}`),
    rewardsOfOrder: (storeId: string, orderId: string): Promise<ReferralRewardRow[]> =>
      all<ReferralRewardRow>(db, sql`SELECT * FROM referral_rewards WHERE store_id = ${storeId} AND order_id = ${orderId}`),
    /** Move a reward from one state to another (conditional UPDATE: @returns false when it was not in `from`). */
    moveReward: async (storeId: string, friendCode: string, from: ReferralRewardRow["state"], to: ReferralRewardRow["state"], nowMs: number): Promise<boolean> =>
      (await run(db, sql`UPDATE referral_rewards SET state = ${to}, updated_ms = ${nowMs} WHERE store_id = ${storeId} AND friend_code = ${friendCode} AND state = ${from}`)).changes === 1,
    /** Pending coupon rewards created before `beforeMs`, oldest first (the job's work, every store). */
    pendingRewards: (beforeMs: number, limit: number): Promise<ReferralRewardRow[]> =>
      all<ReferralRewardRow>(db, sql`SELECT * FROM referral_rewards WHERE state = 'pending' AND created_ms < ${beforeMs} ORDER BY created_ms LIMIT ${limit}`),
    /** A sender's friends and rewards (the admin's counts). */
    stats: async (storeId: string): Promise<{ senders: number; friends: number; rewards: number }> =>
      (await one<{ senders: number; friends: number; rewards: number }>(
        db,
        sql`SELECT
        (SELECT count(*) FROM referral_senders WHERE store_id = ${storeId}) AS senders,
        (SELECT count(*) FROM referral_friends WHERE store_id = ${storeId} AND state = 'created') AS friends,
        (SELECT count(*) FROM referral_rewards WHERE store_id = ${storeId} AND state = 'awarded') AS rewards`,
      ))!,

    /**
     * Write a referral webhook event into the outbox (webhook_events, delivered by server/webhooks/delivery.ts) in the
     * caller's transaction, only when an enabled subscription asks for it (as the outbox triggers do). `data` is the
     * event's `data`, stored as its snapshot.
     */
    async emitEvent(storeId: string, eventId: string, type: ReferralEventType, resourceId: string, data: Record<string, unknown>, nowMs: number): Promise<void> {
      await run(
        db,
        sql`INSERT INTO webhook_events (event_id, store_id, event_type, resource_id, snapshot_json, created_ms)
        SELECT ${eventId}, ${storeId}, ${type}, ${resourceId}, ${JSON.stringify(data)}, ${nowMs}
        WHERE EXISTS (SELECT 1 FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
                      WHERE e.store_id = ${storeId} AND e.event_type = ${type} AND s.status = 'enabled')
        ON CONFLICT (event_id) DO NOTHING`,
      );
    },
  };
}
export type ReferralsRepo = ReturnType<typeof referralsRepo>;

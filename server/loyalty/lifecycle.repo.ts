/**
 * SQL of the loyalty lifecycle (docs/loyalty.md "Birthdays", "Expiry", "Pending points and refunds"; migration 102):
 * the program's lifecycle settings, birthdays, pending order points and applied refunds. Bound parameters only,
 * the store ID in every WHERE; every function returns a promise. The ledger itself is written through loyalty.repo.ts.
 */
import { all, one, run, sql, values, type Db } from "../db/database.ts";

/** The lifecycle settings of a program (columns of `loyalty_programs`, migration 102). */
export type LifecycleSettingsRow = {
  time_zone: string;
  points_expiry_months: number | null;
  return_window_days: number;
  tier_requalification: number;
};
export type PendingRow = {
  pending_id: string;
  store_id: string;
  loyalty_customer_id: string;
  order_id: string;
  points: number;
  order_amount: number;
  refunded_amount: number;
  earning_rule_id: string | null;
  description: string;
  state: "pending" | "confirmed" | "cancelled";
  confirm_after_ms: number;
  created_ms: number;
};
/** A customer with points and the time of their last activity (any transaction but an expiry), for the expiry job. */
export type ExpiryCandidate = { loyalty_customer_id: string; email: string | null; status: string; balance: number; last_activity_ms: number | null };

/** Create the lifecycle data module over `db`. */
export function lifecycleRepo(db: Db) {
  return {
    settings: (storeId: string): Promise<LifecycleSettingsRow | undefined> =>
      one<LifecycleSettingsRow>(db, sql`SELECT time_zone, points_expiry_months, return_window_days, tier_requalification FROM loyalty_programs WHERE store_id = ${storeId}`),
    /** Write the lifecycle settings. @returns false when the store has no program. */
    async setSettings(storeId: string, s: LifecycleSettingsRow, nowMs: number): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`UPDATE loyalty_programs SET time_zone = ${s.time_zone}, points_expiry_months = ${s.points_expiry_months},
          return_window_days = ${s.return_window_days}, tier_requalification = ${s.tier_requalification}, updated_ms = ${nowMs}
        WHERE store_id = ${storeId}`,
          )
        ).changes === 1
      );
    },
    /** Stores whose program is on, with their settings and the points of their enabled birthday rule (null: none). */
    activePrograms: () =>
      all<LifecycleSettingsRow & { store_id: string; birthday_points: number | null; birthday_rule_id: string | null }>(
        db,
        sql`
      SELECT p.store_id, p.time_zone, p.points_expiry_months, p.return_window_days, p.tier_requalification,
             r.points AS birthday_points, r.earning_rule_id AS birthday_rule_id
        FROM loyalty_programs p
        LEFT JOIN loyalty_earning_rules r ON r.store_id = p.store_id AND r.type = 'birthday' AND r.enabled = 1
       WHERE p.enabled = 1`,
      ),

    /** The customer's birthday (`MM-DD`) and when it was set (ms), or nulls. */
    birthday: (storeId: string, customerId: string) =>
      one<{ birthday: string | null; birthday_set_ms: number | null }>(
        db,
        sql`SELECT birthday, birthday_set_ms FROM loyalty_customers WHERE store_id = ${storeId} AND loyalty_customer_id = ${customerId}`,
      ),
    async setBirthday(storeId: string, customerId: string, birthday: string, nowMs: number): Promise<void> {
      await run(db, sql`UPDATE loyalty_customers SET birthday = ${birthday}, birthday_set_ms = ${nowMs} WHERE store_id = ${storeId} AND loyalty_customer_id = ${customerId}`);
    },
    /** Enrolled customers whose birthday is one of `days` (`MM-DD`) and who have no transaction with `awardKey` yet. */
    birthdaysDue: (storeId: string, days: string[], awardKey: string) =>
      values<string>(
        db,
        sql`
      SELECT c.loyalty_customer_id AS id FROM loyalty_customers c
       WHERE c.store_id = ${storeId} AND c.status = 'enrolled' AND c.birthday IN (${sql.join(days)})
         AND NOT EXISTS (SELECT 1 FROM loyalty_transactions t WHERE t.store_id = c.store_id AND t.loyalty_customer_id = c.loyalty_customer_id AND t.award_key = ${awardKey})`,
      ),

    /** Customers of a store with points, with their last activity. */
    expiryCandidates: (storeId: string) =>
      all<ExpiryCandidate>(
        db,
        sql`
      SELECT c.loyalty_customer_id, c.email, c.status, c.balance,
             (SELECT MAX(t.created_ms) FROM loyalty_transactions t WHERE t.store_id = c.store_id AND t.loyalty_customer_id = c.loyalty_customer_id AND t.type <> 'expiry') AS last_activity_ms
        FROM loyalty_customers c WHERE c.store_id = ${storeId} AND c.balance > 0`,
      ),
    /** The customer's last activity (ms of the newest transaction that is not an expiry), or null. */
    lastActivity: async (storeId: string, customerId: string): Promise<number | null> =>
      (await one<{ ms: number | null }>(db, sql`SELECT MAX(created_ms) AS ms FROM loyalty_transactions WHERE store_id = ${storeId} AND loyalty_customer_id = ${customerId} AND type <> 'expiry'`))
        ?.ms ?? null,

    /**
     * Hold an order's points (one row per (store, order): the unique key with ON CONFLICT DO NOTHING makes it once).
     * @returns true when this call created the row.
     */
    async insertPending(p: Omit<PendingRow, "state" | "refunded_amount">): Promise<boolean> {
      const r = await all(
        db,
        sql`INSERT INTO loyalty_pending_points (pending_id, store_id, loyalty_customer_id, order_id, points, order_amount, earning_rule_id, description, confirm_after_ms, created_ms)
        VALUES (${p.pending_id}, ${p.store_id}, ${p.loyalty_customer_id}, ${p.order_id}, ${p.points}, ${p.order_amount}, ${p.earning_rule_id}, ${p.description}, ${p.confirm_after_ms}, ${p.created_ms})
        ON CONFLICT (store_id, order_id) DO NOTHING RETURNING pending_id`,
      );
      return r.length === 1;
    },
    pendingByOrder: (storeId: string, orderId: string) => one<PendingRow>(db, sql`SELECT * FROM loyalty_pending_points WHERE store_id = ${storeId} AND order_id = ${orderId}`),
    /** Pending rows whose return window ended at or before `nowMs` (every store). */
    pendingDue: (nowMs: number, limit: number) =>
      all<PendingRow>(db, sql`SELECT * FROM loyalty_pending_points WHERE state = 'pending' AND confirm_after_ms <= ${nowMs} ORDER BY confirm_after_ms LIMIT ${limit}`),
    /** Move a pending row from `pending` to `state`. @returns false when another call moved it first (conditional update). */
    async settlePending(storeId: string, pendingId: string, state: "confirmed" | "cancelled"): Promise<boolean> {
      return (await run(db, sql`UPDATE loyalty_pending_points SET state = ${state} WHERE store_id = ${storeId} AND pending_id = ${pendingId} AND state = 'pending'`)).changes === 1;
    },
    /** Add a refunded amount to a row still pending. @returns false when it is no longer pending. */
    async addPendingRefund(storeId: string, pendingId: string, amount: number): Promise<boolean> {
      return (
        (await run(db, sql`UPDATE loyalty_pending_points SET refunded_amount = refunded_amount + ${amount} WHERE store_id = ${storeId} AND pending_id = ${pendingId} AND state = 'pending'`))
          .changes === 1
      );
    },
    /** The points of a customer's pending rows (refunded parts excluded). */
    async pendingPoints(storeId: string, customerId: string): Promise<number> {
      const rows = await all<{ points: number; order_amount: number; refunded_amount: number }>(
        db,
        sql`SELECT points, order_amount, refunded_amount FROM loyalty_pending_points
        WHERE store_id = ${storeId} AND loyalty_customer_id = ${customerId} AND state = 'pending'`,
      );
      return rows.reduce((sum, r) => sum + remainingPoints(r), 0);
    },

    /** Record a refund once per (store, refund) (primary key, ON CONFLICT DO NOTHING). @returns true when this call recorded it. */
    async recordRefund(r: { storeId: string; refundId: string; orderId: string; amount: number; points: number; createdMs: number }): Promise<boolean> {
      const rows = await all(
        db,
        sql`INSERT INTO loyalty_refunds (store_id, refund_id, order_id, amount, points, created_ms)
        VALUES (${r.storeId}, ${r.refundId}, ${r.orderId}, ${r.amount}, ${r.points}, ${r.createdMs}) ON CONFLICT (store_id, refund_id) DO NOTHING RETURNING refund_id`,
      );
      return rows.length === 1;
    },
    async setRefundPoints(storeId: string, refundId: string, points: number): Promise<void> {
      await run(db, sql`UPDATE loyalty_refunds SET points = ${points} WHERE store_id = ${storeId} AND refund_id = ${refundId}`);
    },
    /** Points already reversed for an order's refunds. */
    async refundedPoints(storeId: string, orderId: string): Promise<number> {
      return (await one<{ n: number }>(db, sql`SELECT COALESCE(SUM(points), 0) AS n FROM loyalty_refunds WHERE store_id = ${storeId} AND order_id = ${orderId}`))?.n ?? 0;
    },
    /** A customer's redemption transactions (issued rewards), newest first, with their rule's description. */
    redemptions: (storeId: string, customerId: string) =>
      all<{ transaction_id: string; redemption_rule_id: string | null; coupon_code: string | null; description: string; points: number; created_ms: number; reward_description: string | null }>(
        db,
        sql`
      SELECT t.transaction_id, t.redemption_rule_id, t.coupon_code, t.description, t.points, t.created_ms, r.reward_description
        FROM loyalty_transactions t LEFT JOIN loyalty_redemption_rules r ON r.store_id = t.store_id AND r.redemption_rule_id = t.redemption_rule_id
       WHERE t.store_id = ${storeId} AND t.loyalty_customer_id = ${customerId} AND t.type = 'redemption' ORDER BY t.seq DESC LIMIT 1000`,
      ),
    /** Lower a customer's lifetime points (the VIP measure) by `points`, never below 0. */
    async lowerLifetime(storeId: string, customerId: string, points: number): Promise<void> {
      await run(
        db,
        sql`UPDATE loyalty_customers SET lifetime_points = CASE WHEN lifetime_points > ${points} THEN lifetime_points - ${points} ELSE 0 END
        WHERE store_id = ${storeId} AND loyalty_customer_id = ${customerId}`,
      );
    },
  };
}
export type LifecycleRepo = ReturnType<typeof lifecycleRepo>;

/** The points of a pending row still due: its points less the refunded share of the order, floored. */
export function remainingPoints(r: { points: number; order_amount: number; refunded_amount: number }): number {
  if (r.order_amount <= 0) return r.points;
  const share = Math.max(0, 1 - r.refunded_amount / r.order_amount);
  return Math.floor(r.points * share + 1e-9);
}

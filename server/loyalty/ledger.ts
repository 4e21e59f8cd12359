/**
 * The points ledger (docs/loyalty.md, Points ledger; docs/loyalty.md, Statuses and rules): points change only by appending
 * transactions (earning, redemption, adjustment); the balance is the sum of a customer's transactions
 * (triggers of migration 040 keep and check it). Earning multiplies by the VIP tier multiplier (sign-up
 * points excepted) and recalculates the tier from lifetime earned points. Every write runs in
 * `transaction(db, ...)` and first locks the customer's row (`repo.lockCustomer`: `FOR UPDATE` on PostgreSQL,
 * the write lock on SQLite), so "enough points" and "already earned" checks see committed state and each
 * read-then-write of one customer's ledger is exactly-once across nodes.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { OrderEarningBody, TransactionDetails } from "../contract/loyalty.ts";
import type { LoyaltyTransaction, OrderEarningResponse, RedemptionResponse } from "../contract/loyalty.responses.ts";
import { ApiError, badRequest, notFound } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import type { LifecycleRepo } from "./lifecycle.repo.ts";
import type { LoyaltyRepo, ProgramRow, TransactionRow } from "./loyalty.repo.ts";
import { toCustomer, toTransaction } from "./shapes.ts";
import { multiplierOf, tierAllows, tierById, tierFor } from "./tiers.ts";

export const forbidden = (description: string, code: string) => new ApiError(403, description, code);
export const conflict = (description: string, code: string) => new ApiError(409, description, code);

/** A coupon code: `CHORUS-` + 12 characters of Crockford base32 (60 random bits), in groups of four. */
function newCouponCode(): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const bytes = randomBytes(12);
  let out = "";
  for (const b of bytes) out += alphabet[b & 31];
  return `CHORUS-${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}`;
}

/**
 * Recalculate an enrolled customer's tier (pending and blocked customers are not placed in tiers). Call inside a transaction.
 * `pointsChanged`: the recalculation follows a change of points (earning, adjustment, cancellation, refund); then, unless the
 * program sets VIP tier re-qualification, the tier never goes down (docs/loyalty.md "Pending points and refunds").
 */
export async function recalculateTier(repo: LoyaltyRepo, storeId: string, customerId: string, options: { pointsChanged?: boolean } = {}): Promise<void> {
  const c = (await repo.getCustomer(storeId, customerId))!;
  if (c.status !== "enrolled") return;
  const tiers = await repo.vipTiers(storeId);
  let tier = tierFor(tiers, c.lifetime_points, c.minimum_vip_tier_id);
  if (options.pointsChanged && ((await repo.getProgram(storeId)) as { tier_requalification?: number } | undefined)?.tier_requalification !== 1) {
    const current = tierById(tiers, c.vip_tier_id);
    if (current && (!tier || current.points_threshold > tier.points_threshold)) tier = current; // kept: no re-qualification
  }
  if ((tier?.vip_tier_id ?? null) !== c.vip_tier_id) await repo.setTier(storeId, customerId, tier?.vip_tier_id ?? null);
}

/**
 * Append an earning of `points` inside the caller's transaction (which has locked the customer: `repo.lockCustomer`)
 * and recalculate the VIP tier. `awardKey` makes an award unique per customer (`sign-up`, `review:<id>`); `orderId` per store.
 * @returns a promise of the new transaction row.
 */
export async function appendEarning(
  repo: LoyaltyRepo,
  storeId: string,
  customerId: string,
  points: number,
  description: string,
  extra: { earningRuleId?: string; awardKey?: string; orderId?: string; details?: TransactionDetails },
): Promise<TransactionRow> {
  const c = (await repo.getCustomer(storeId, customerId))!;
  const transactionId = randomUUID();
  await repo.insertTransaction({
    transactionId,
    storeId,
    loyaltyCustomerId: customerId,
    type: "earning",
    points,
    balanceAfter: c.balance + points,
    description,
    earningRuleId: extra.earningRuleId,
    awardKey: extra.awardKey,
    orderId: extra.orderId,
    details: extra.details,
    createdMs: Date.now(),
  });
  await recalculateTier(repo, storeId, customerId, { pointsChanged: true });
  return (await repo.getTransaction(storeId, transactionId))!;
}

/** Create the ledger part of the loyalty service. `requireProgram` answers 404 for a store without a program. */
export function loyaltyLedger(deps: { db: Db; repo: LoyaltyRepo; requireProgram: (storeId: string) => Promise<ProgramRow> }) {
  const { db, repo, requireProgram } = deps;

  return {
    /**
     * POST /loyalty/customer/redemptions. @throws 403 not enrolled / rule not open to the tier,
     * 404 unknown rule, 409 insufficient points. @returns the coupon, recorded with the transaction.
     */
    redeem(storeId: string, customerId: string, redemptionRuleId: string): Promise<RedemptionResponse> {
      return transaction(db, async () => {
        // Exactly-once: row lock on the customer, so concurrent redemptions (any node) check the balance one after another.
        const c = (await repo.lockCustomer(storeId, customerId))!;
        if (c.status === "blocked") throw forbidden("This customer cannot take part in the loyalty program", "customer_blocked");
        if (c.status !== "enrolled") throw forbidden("Join the loyalty program before redeeming points", "customer_not_enrolled");
        const rule = await repo.getRedemptionRule(storeId, redemptionRuleId);
        if (!rule || rule.enabled !== 1) throw notFound("No redemption rule with this redemptionRuleId", "redemption_rule_not_found");
        if (!tierAllows(c, await repo.vipTiers(storeId), rule.minimum_vip_tier_id)) throw forbidden("This reward needs a higher VIP tier", "vip_tier_required");
        if (c.balance < rule.points_cost) {
          throw conflict(`Not enough points: this reward costs ${rule.points_cost} points and the balance is ${c.balance}`, "insufficient_points");
        }
        const transactionId = randomUUID();
        const code = newCouponCode();
        await repo.insertTransaction({
          transactionId,
          storeId,
          loyaltyCustomerId: customerId,
          type: "redemption",
          points: -rule.points_cost,
          balanceAfter: c.balance - rule.points_cost,
          description: `Redeemed: ${rule.name}`,
          details: { reward: rule.name },
          redemptionRuleId: rule.redemption_rule_id,
          couponCode: code,
          createdMs: Date.now(),
        });
        return { redemption: { transactionId, reward: { type: "coupon", code, description: rule.reward_description, value: rule.reward_value } } };
      });
    },

    /**
     * POST /enterprise/loyalty/earning_transactions: points for an order, with the tier multiplier,
     * idempotent per (store, orderId). @returns created=false with the first transaction for a repeat.
     * @throws 404 unknown customer, 403 blocked, 409 no enabled points-per-spend rule.
     */
    async earnForOrder(storeId: string, body: OrderEarningBody): Promise<{ created: boolean; body: OrderEarningResponse }> {
      await requireProgram(storeId);
      return transaction(db, async () => {
        const repeat = async (existing: TransactionRow) => ({
          created: false,
          body: { transaction: toTransaction(existing), loyaltyCustomer: toCustomer((await repo.getCustomer(storeId, existing.loyalty_customer_id))!, await repo.vipTiers(storeId)) },
        });
        const existing = await repo.getTransactionByOrder(storeId, body.orderId);
        if (existing) return repeat(existing);
        const found =
          body.customer.platformCustomerId !== undefined ? await repo.getCustomerByPlatformId(storeId, body.customer.platformCustomerId) : await repo.getCustomerByEmail(storeId, body.customer.email!);
        if (!found) throw notFound("No loyalty customer matches customer (they join by signing in to the loyalty program first)", "loyalty_customer_not_found");
        // Exactly-once per (store, order): row lock on the customer, then look for the order again (a request for the
        // same order that held the lock before us has committed its earning by now); the unique order index backs it.
        const c = (await repo.lockCustomer(storeId, found.loyalty_customer_id))!;
        const earned = await repo.getTransactionByOrder(storeId, body.orderId);
        if (earned) return repeat(earned);
        if (c.status === "blocked") throw forbidden("This customer cannot take part in the loyalty program", "customer_blocked");
        const rule = (await repo.earningRules(storeId)).find((r) => r.type === "points-per-spend" && r.enabled === 1);
        if (!rule || rule.points_per_currency_unit === null) throw conflict("The program has no enabled points-per-spend earning rule", "no_earning_rule");
        const points = Math.floor(body.amount * rule.points_per_currency_unit * multiplierOf(c, await repo.vipTiers(storeId)) + 1e-9);
        const tx = await appendEarning(repo, storeId, c.loyalty_customer_id, points, `Order ${body.orderId}`, {
          earningRuleId: rule.earning_rule_id,
          orderId: body.orderId,
          details: { order: body.orderId },
        });
        return { created: true, body: { transaction: toTransaction(tx), loyaltyCustomer: toCustomer((await repo.getCustomer(storeId, c.loyalty_customer_id))!, await repo.vipTiers(storeId)) } };
      });
    },

    /**
     * Idempotent catch-up of review earnings: for each published review whose reviewer e-mail is the
     * customer's (one customer, or every customer of the store), award the `review-with-media` rule when
     * the review has published media (else the `review` rule), times the tier multiplier, and mark the
     * review incentivized (`isIncentivized: true`) in the same transaction. At most one
     * award per (customer, review) (unique award key), so repeated calls award nothing twice. Blocked
     * customers earn nothing. Called on login and on customer reads. @returns the number of awards.
     */
    async awardReviewEarnings(storeId: string, loyaltyCustomerId?: string): Promise<number> {
      const ids = loyaltyCustomerId ? [loyaltyCustomerId] : await repo.customersWithEmail(storeId);
      let awarded = 0;
      for (const id of ids) {
        const c = await repo.getCustomer(storeId, id);
        if (!c || !c.email || c.status === "blocked") continue;
        if ((await repo.unawardedReviews(storeId, c.email, id)).length === 0) continue; // read-only fast path: no write, no cache invalidation
        awarded += await transaction(db, async () => {
          // Read again inside the transaction, with the row locked (exactly-once: row lock on the customer; the unique
          // award key backs it): another node may have blocked the customer, changed the e-mail or awarded meanwhile.
          const current = await repo.lockCustomer(storeId, id);
          if (!current || !current.email || current.status === "blocked") return 0;
          const rules = (await repo.earningRules(storeId)).filter((r) => r.enabled === 1);
          const review = rules.find((r) => r.type === "review");
          const withMedia = rules.find((r) => r.type === "review-with-media") ?? review;
          let n = 0;
          for (const r of await repo.unawardedReviews(storeId, current.email, id)) {
            const rule = r.media_count > 0 ? withMedia : review;
            if (!rule) continue;
            const fresh = (await repo.getCustomer(storeId, id))!;
            const points = Math.floor(rule.points * multiplierOf(fresh, await repo.vipTiers(storeId)));
            await appendEarning(repo, storeId, id, points, r.product_name ? `Review of ${r.product_name}` : "Review", {
              earningRuleId: rule.earning_rule_id,
              awardKey: `review:${r.review_id}`,
              ...(r.product_name ? { details: { product: r.product_name } } : {}),
            });
            // Incentive disclosed (issue 22 item 4): the review says so in every answer from now on.
            if (points > 0) await repo.markReviewIncentivized(storeId, r.review_id);
            n++;
          }
          return n;
        });
      }
      return awarded;
    },

    /** A merchant adjustment (signed points). @throws 400 zero or not an integer, 404 no such customer, 409 when it would make the balance negative. */
    adjustPoints(storeId: string, customerId: string, points: number, description: string): Promise<LoyaltyTransaction> {
      return transaction(db, async () => {
        const c = await repo.lockCustomer(storeId, customerId); // exactly-once: row lock on the customer
        if (!c) throw notFound("No such loyalty customer", "loyalty_customer_not_found");
        if (!Number.isInteger(points) || points === 0) throw badRequest("points must be a non-zero integer");
        if (c.balance + points < 0) throw conflict(`Not enough points: the balance is ${c.balance}`, "insufficient_points");
        const transactionId = randomUUID();
        await repo.insertTransaction({ transactionId, storeId, loyaltyCustomerId: customerId, type: "adjustment", points, balanceAfter: c.balance + points, description, createdMs: Date.now() });
        if (points > 0) await recalculateTier(repo, storeId, customerId, { pointsChanged: true });
        return toTransaction((await repo.getTransaction(storeId, transactionId))!);
      });
    },

    /**
     * The data-layer ledger check: true when the stored balance equals the sum of the customer's
     * transactions and the last `balanceAfter`, and no transaction left a negative balance.
     */
    async checkLedger(storeId: string, customerId: string): Promise<{ ok: boolean; balance: number; sum: number }> {
      const r = await repo.ledgerCheck(storeId, customerId);
      if (!r) return { ok: true, balance: 0, sum: 0 };
      return { ok: r.balance === r.sum && r.balance === (r.last ?? 0) && r.negative === 0, balance: r.balance, sum: r.sum };
    },
  };
}
export type LoyaltyLedger = ReturnType<typeof loyaltyLedger>;

/**
 * Points for a platform order (issue #22 item 4), inside the caller's transaction: the enabled
 * `points-per-spend` earning rule × `amount` (currency units) × the VIP tier multiplier, floored, for the
 * enrolled loyalty customer whose platform customer ID placed the order. Once per (store, order): the
 * ledger's unique order index holds it, shared with POST /enterprise/loyalty/earning_transactions.
 * @returns the earning, or null when nothing is due (no program or the program turned off, no such or not
 *   enrolled customer, no rule, 0 points, already earned).
 */
export async function earnForPlatformOrder(
  repo: LoyaltyRepo,
  storeId: string,
  order: { orderId: string; platformCustomerId: string; amount: number; label: string },
  life?: LifecycleRepo,
): Promise<TransactionRow | null> {
  const program = (await repo.getProgram(storeId)) as (ProgramRow & { return_window_days?: number }) | undefined;
  if (program?.enabled !== 1) return null; // no program, or turned off by the merchant: nothing is earned
  if (await repo.getTransactionByOrder(storeId, order.orderId)) return null;
  if (life && (await life.pendingByOrder(storeId, order.orderId))) return null; // held for the return window already
  const found = await repo.getCustomerByPlatformId(storeId, order.platformCustomerId);
  if (!found) return null;
  // Exactly-once per (store, order): row lock on the customer, then the order is looked for again (unique order index behind it).
  const c = (await repo.lockCustomer(storeId, found.loyalty_customer_id))!;
  if (c.status !== "enrolled" || (await repo.getTransactionByOrder(storeId, order.orderId))) return null;
  const rule = (await repo.earningRules(storeId)).find((r) => r.type === "points-per-spend" && r.enabled === 1);
  if (!rule || rule.points_per_currency_unit === null) return null;
  const points = Math.floor(order.amount * rule.points_per_currency_unit * multiplierOf(c, await repo.vipTiers(storeId)) + 1e-9);
  if (points <= 0) return null;
  const windowDays = program.return_window_days ?? 0;
  if (life && windowDays > 0) {
    // Pending for the store's return window (docs/loyalty.md "Pending points and refunds"); one row per (store, order): unique key.
    const nowMs = Date.now();
    await life.insertPending({
      pending_id: randomUUID(),
      store_id: storeId,
      loyalty_customer_id: c.loyalty_customer_id,
      order_id: order.orderId,
      points,
      order_amount: order.amount,
      earning_rule_id: rule.earning_rule_id,
      description: `Order ${order.label}`,
      confirm_after_ms: nowMs + windowDays * 86_400_000,
      created_ms: nowMs,
    });
    return null;
  }
  return appendEarning(repo, storeId, c.loyalty_customer_id, points, `Order ${order.label}`, { earningRuleId: rule.earning_rule_id, orderId: order.orderId, details: { order: order.label } });
}

/**
 * Reverse the points an order earned when it is cancelled, inside the caller's transaction: one
 * `adjustment` of minus the earned points (award key `order-cancelled:<orderId>`, so at most once), capped
 * at the balance (points already redeemed cannot be taken back: the ledger never goes negative, and the
 * description says how many were reversed). With the lifecycle repo (`life`, docs/loyalty.md "Pending points and refunds"):
 * points still pending are cancelled instead (nothing is written to the ledger), points already reversed by refunds are
 * not reversed twice, and lifetime points (the VIP measure) fall by what the order still counted.
 * @returns the adjustment, or null when the order earned nothing, was still pending, or was reversed before.
 */
export async function reverseOrderEarning(repo: LoyaltyRepo, storeId: string, order: { orderId: string; label: string }, life?: LifecycleRepo): Promise<TransactionRow | null> {
  const pending = life ? await life.pendingByOrder(storeId, order.orderId) : undefined;
  if (life && pending) {
    await repo.lockCustomer(storeId, pending.loyalty_customer_id); // row lock (the confirmation takes it too); then a conditional update
    if (await life.settlePending(storeId, pending.pending_id, "cancelled")) return null; // still pending: the points are never given
  }
  const earned = await repo.getTransactionByOrder(storeId, order.orderId);
  if (!earned || earned.type !== "earning" || earned.points <= 0) return null;
  const awardKey = `order-cancelled:${order.orderId}`;
  // Exactly-once: row lock on the customer before the award check (the unique award key backs it).
  const c = (await repo.lockCustomer(storeId, earned.loyalty_customer_id))!;
  if (await repo.hasAward(storeId, earned.loyalty_customer_id, awardKey)) return null;
  const due = earned.points - (life ? await life.refundedPoints(storeId, order.orderId) : 0);
  const points = Math.max(0, Math.min(due, c.balance));
  const transactionId = randomUUID();
  const description = points === due ? `Order ${order.label} cancelled` : `Order ${order.label} cancelled (${points} of ${due} points reversed: the rest were already redeemed)`;
  await repo.insertTransaction({
    transactionId,
    storeId,
    loyaltyCustomerId: c.loyalty_customer_id,
    type: "adjustment",
    points: -points,
    balanceAfter: c.balance - points,
    description,
    awardKey,
    details: { order: order.label, ...(points === due ? {} : { pointsDue: due }) },
    createdMs: Date.now(),
  });
  if (life) {
    // Cancellation lowers lifetime points too (what is left after earlier refunds); the tier follows with re-qualification.
    if (due > 0) await life.lowerLifetime(storeId, c.loyalty_customer_id, due);
    await recalculateTier(repo, storeId, c.loyalty_customer_id, { pointsChanged: true });
  }
  return (await repo.getTransaction(storeId, transactionId))!;
}

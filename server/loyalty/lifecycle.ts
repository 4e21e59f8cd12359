/**
 * The loyalty lifecycle (docs/loyalty.md "Birthdays", "Expiry", "Pending points and refunds"): birthdays set by the
 * shopper and awarded once a year on the local day, points that expire after months without activity (a reminder
 * e-mail 30 days before, then an `expiry` transaction), order points held for the store's return window, and
 * refunds that reverse points in proportion. The persisted job is `runDue(nowMs)`: every schedule lives in the
 * database (birthdays, last activity, pending rows), so a run after a restart does what fell due meanwhile, and each
 * award is exactly-once across nodes (row lock on the customer, then the unique award key of the ledger).
 */
import { randomUUID } from "node:crypto";
import { ApiError, notFound } from "../contract/errors.ts";
import type { BirthdayBody, CustomerOverview, LifecycleSettings, LifecycleSettingsPatch } from "../contract/loyalty-lifecycle.ts";
import type { EarningRuleType } from "../contract/loyalty.ts";
import { transaction, type Db } from "../db/database.ts";
import type { MailService } from "../mail/mail.service.ts";
import { renderMail } from "../mail/render.ts";
import { isoFromMs } from "../shared/iso-date.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { appendEarning, recalculateTier } from "./ledger.ts";
import { remainingPoints, type LifecycleRepo, type LifecycleSettingsRow } from "./lifecycle.repo.ts";
import type { LoyaltyRepo, TransactionRow } from "./loyalty.repo.ts";
import { toCustomer } from "./shapes.ts";
import { tierAllows, tierById } from "./tiers.ts";

const DAY_MS = 86_400_000;
/** A birthday may be changed again this long after it was set. */
export const BIRTHDAY_CHANGE_MS = 365 * DAY_MS;
/** The reminder e-mail goes out this long before points expire. */
export const EXPIRY_REMINDER_MS = 30 * DAY_MS;

/** The local calendar date of `ms` in `timeZone`. */
export function localDate(ms: number, timeZone: string): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" }).formatToParts(ms);
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: n("year"), month: n("month"), day: n("day") };
}

/** `ms` plus `months` calendar months (UTC; a day missing in the target month falls to its last day). */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return target.getTime();
}

/** How often each earning rule type pays (docs/loyalty.md "Earning"). */
const FREQUENCY: Record<EarningRuleType, CustomerOverview["earningRules"][number]["frequency"]> = {
  "sign-up": "once",
  "points-per-spend": "per-order",
  review: "per-review",
  "review-with-media": "per-review",
  birthday: "yearly",
};

const pad = (n: number) => String(n).padStart(2, "0");
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The birthdays (`MM-DD`) celebrated on a local date: the day itself, and 02-29 on 28 February of a common year. */
export function birthdaysOn(date: { year: number; month: number; day: number }): string[] {
  const days = [`${pad(date.month)}-${pad(date.day)}`];
  if (date.month === 2 && date.day === 28 && !isLeap(date.year)) days.push("02-29");
  return days;
}

const toSettings = (r: LifecycleSettingsRow): LifecycleSettings => ({
  timeZone: r.time_zone,
  pointsExpiryMonths: r.points_expiry_months,
  returnWindowDays: r.return_window_days,
  tierRequalification: r.tier_requalification === 1,
});

export type LifecycleDeps = { db: Db; repo: LoyaltyRepo; life: LifecycleRepo; stores: StoresRepo; mail: MailService; now: () => number; log?: (line: string, error?: unknown) => void };

/** Create the lifecycle service (`services.loyaltyLifecycle`). */
export function loyaltyLifecycle(deps: LifecycleDeps) {
  const { db, repo, life, stores, mail, now } = deps;

  async function settingsRow(storeId: string): Promise<LifecycleSettingsRow> {
    const s = await life.settings(storeId);
    if (!s) throw notFound("This store has no loyalty program", "loyalty_program_not_found");
    return s;
  }

  /** Lower lifetime points by `points` (cancellation, refund) and recalculate the tier. Inside the caller's transaction. */
  async function loseLifetime(storeId: string, customerId: string, points: number): Promise<void> {
    if (points <= 0) return;
    await life.lowerLifetime(storeId, customerId, points);
    await recalculateTier(repo, storeId, customerId, { pointsChanged: true });
  }

  /** Award a birthday once (award key `birthday:<local year>`). @returns true when awarded here. */
  async function awardBirthday(storeId: string, customerId: string, points: number, ruleId: string, year: number): Promise<boolean> {
    return transaction(db, async () => {
      // Exactly-once across nodes: row lock on the customer, then the award key is looked for (unique index behind it).
      const c = await repo.lockCustomer(storeId, customerId);
      if (!c || c.status !== "enrolled") return false;
      const awardKey = `birthday:${year}`;
      if (await repo.hasAward(storeId, customerId, awardKey)) return false;
      await appendEarning(repo, storeId, customerId, points, "Happy birthday", { earningRuleId: ruleId, awardKey });
      return true;
    });
  }

  /** Expire a customer's balance once per period of inactivity (award key `expiry:<last activity ms>`). @returns true when expired here. */
  async function expire(storeId: string, customerId: string, months: number, nowMs: number): Promise<boolean> {
    return transaction(db, async () => {
      // Exactly-once: row lock on the customer; the last activity is read again under it, and the award key is unique.
      const c = await repo.lockCustomer(storeId, customerId);
      if (!c || c.balance <= 0) return false;
      const last = await life.lastActivity(storeId, customerId);
      if (last === null || addMonths(last, months) > nowMs) return false;
      const awardKey = `expiry:${last}`;
      if (await repo.hasAward(storeId, customerId, awardKey)) return false;
      await repo.insertTransaction({
        transactionId: randomUUID(),
        storeId,
        loyaltyCustomerId: customerId,
        type: "expiry",
        points: -c.balance,
        balanceAfter: 0,
        description: `Points expired after ${months} months without activity`,
        details: { months },
        awardKey,
        createdMs: nowMs,
      });
      return true;
    });
  }

  async function remind(storeId: string, c: { loyalty_customer_id: string; email: string; balance: number }, last: number, expiresMs: number): Promise<boolean> {
    const store = await stores.get(storeId);
    const storeName = store?.name ?? "Our shop";
    const date = new Date(expiresMs).toISOString().slice(0, 10);
    const { html, text } = renderMail({
      storeName,
      preheader: `Your ${c.balance} points expire on ${date}`,
      heading: "Your points are about to expire",
      paragraphs: [`You have ${c.balance} points at ${storeName}. They expire on ${date} unless you earn or redeem points before then.`],
    });
    // The outbox's dedupe key makes the reminder once per period of inactivity, whichever node enqueues it.
    const r = await mail.enqueue({
      storeId,
      kind: "loyalty-expiry-reminder",
      to: c.email,
      subject: `Your ${c.balance} points at ${storeName} expire on ${date}`,
      html,
      text,
      dedupeKey: `loyalty-expiry-reminder:${storeId}:${c.loyalty_customer_id}:${last}`,
    });
    return !r.duplicate;
  }

  return {
    /** The program's lifecycle settings. @throws 404 without a program. */
    async settings(storeId: string): Promise<LifecycleSettings> {
      return toSettings(await settingsRow(storeId));
    },
    /** Change some lifecycle settings (already validated with `lifecycleSettingsPatch`). @returns the settings. @throws 404 without a program. */
    async updateSettings(storeId: string, patch: LifecycleSettingsPatch): Promise<LifecycleSettings> {
      return transaction(db, async () => {
        const s = toSettings(await settingsRow(storeId));
        const next = { ...s, ...patch };
        await life.setSettings(
          storeId,
          {
            time_zone: next.timeZone,
            points_expiry_months: next.pointsExpiryMonths,
            return_window_days: next.returnWindowDays,
            tier_requalification: next.tierRequalification ? 1 : 0,
          },
          now(),
        );
        return next;
      });
    },

    /**
     * PATCH /loyalty/customer: set the shopper's birthday. Setting the same day again changes nothing; another day
     * is accepted once a year (`BIRTHDAY_CHANGE_MS` after the last change). @throws 403 blocked, 409 `birthday_change_too_soon`.
     */
    setBirthday(storeId: string, customerId: string, body: BirthdayBody) {
      return transaction(db, async () => {
        const c = await repo.lockCustomer(storeId, customerId); // row lock: the once-a-year check and the write are one step
        if (!c) throw notFound("No such loyalty customer", "loyalty_customer_not_found");
        if (c.status === "blocked") throw new ApiError(403, "This customer cannot take part in the loyalty program", "customer_blocked");
        const wanted = `${pad(body.birthday.month)}-${pad(body.birthday.day)}`;
        const current = (await life.birthday(storeId, customerId))!;
        const t = now();
        let setMs = current.birthday_set_ms ?? t;
        if (current.birthday !== wanted) {
          if (current.birthday !== null && current.birthday_set_ms !== null && t < current.birthday_set_ms + BIRTHDAY_CHANGE_MS) {
            throw new ApiError(409, `The birthday can be changed once a year: again from ${isoFromMs(current.birthday_set_ms + BIRTHDAY_CHANGE_MS)}`, "birthday_change_too_soon");
          }
          await life.setBirthday(storeId, customerId, wanted, t);
          setMs = t;
        }
        return {
          loyaltyCustomer: toCustomer((await repo.getCustomer(storeId, customerId))!, await repo.vipTiers(storeId)),
          birthday: { ...body.birthday, changeableFrom: isoFromMs(setMs + BIRTHDAY_CHANGE_MS) },
        };
      });
    },

    /** A customer's birthday, pending points and the date their points expire (null: never, or no points). */
    async customerLifecycle(storeId: string, customerId: string): Promise<{ birthday: { month: number; day: number } | null; pending: number; pointsExpireMs: number | null }> {
      const s = await settingsRow(storeId);
      const b = await life.birthday(storeId, customerId);
      const c = await repo.getCustomer(storeId, customerId);
      const last = await life.lastActivity(storeId, customerId);
      return {
        birthday: b?.birthday ? { month: Number(b.birthday.slice(0, 2)), day: Number(b.birthday.slice(3)) } : null,
        pending: await life.pendingPoints(storeId, customerId),
        pointsExpireMs: s.points_expiry_months !== null && c && c.balance > 0 && last !== null ? addMonths(last, s.points_expiry_months) : null,
      };
    },

    /**
     * GET /loyalty/customer/overview (docs/loyalty.md "Widget `<chorus-loyalty>`"): balance, pending and lifetime points,
     * when the balance expires, the current VIP tier and the points still needed for the next, the birthday (with when it
     * may change again) and the customer's state for each enabled earning rule (a birthday is `done` once awarded in the
     * store's local year). @throws 404 without a program or customer.
     */
    async overview(storeId: string, customerId: string): Promise<CustomerOverview> {
      const s = await settingsRow(storeId);
      const c = await repo.getCustomer(storeId, customerId);
      if (!c) throw notFound("No such loyalty customer", "loyalty_customer_not_found");
      const tiers = await repo.vipTiers(storeId); // sorted by threshold
      const life_ = await this.customerLifecycle(storeId, customerId);
      const b = await life.birthday(storeId, customerId);
      const tier = c.status === "enrolled" ? tierById(tiers, c.vip_tier_id) : undefined;
      const next = c.status === "enrolled" ? tiers.find((t) => t.points_threshold > Math.max(tier?.points_threshold ?? -1, c.lifetime_points)) : undefined;
      const year = localDate(now(), s.time_zone).year;
      const earningRules: CustomerOverview["earningRules"] = [];
      for (const r of (await repo.earningRules(storeId)).filter((rule) => rule.enabled === 1)) {
        const frequency = FREQUENCY[r.type];
        let state: CustomerOverview["earningRules"][number]["state"] = "available";
        if (c.status === "blocked" || !tierAllows(c, tiers, r.minimum_vip_tier_id)) state = "unavailable";
        else if (r.type === "sign-up" && c.status === "enrolled") state = "done";
        else if (r.type === "birthday" && (await repo.hasAward(storeId, customerId, `birthday:${year}`))) state = "done";
        earningRules.push({ earningRuleId: r.earning_rule_id, frequency, state });
      }
      return {
        points: { balance: c.balance, pending: life_.pending, lifetime: c.lifetime_points },
        pointsExpireAt: life_.pointsExpireMs === null ? null : isoFromMs(life_.pointsExpireMs),
        vipTier: tier ? { vipTierId: tier.vip_tier_id, name: tier.name, pointsThreshold: tier.points_threshold } : null,
        nextVipTier: next ? { vipTierId: next.vip_tier_id, name: next.name, pointsThreshold: next.points_threshold, pointsNeeded: next.points_threshold - c.lifetime_points } : null,
        birthday: life_.birthday && b?.birthday_set_ms != null ? { ...life_.birthday, changeableFrom: isoFromMs(b.birthday_set_ms + BIRTHDAY_CHANGE_MS) } : null,
        earningRules,
      };
    },

    /**
     * The persisted job: birthdays of the local day, expiry reminders and expiries, and pending order points whose
     * return window ended, all as of `nowMs`. Safe to run on several nodes at once. @returns the counts.
     */
    async runDue(nowMs: number = now()): Promise<{ birthdays: number; reminders: number; expired: number; confirmed: number }> {
      const counts = { birthdays: 0, reminders: 0, expired: 0, confirmed: 0 };
      for (const p of await life.activePrograms()) {
        if (p.birthday_rule_id && p.birthday_points && p.birthday_points > 0) {
          const today = localDate(nowMs, p.time_zone);
          for (const id of await life.birthdaysDue(p.store_id, birthdaysOn(today), `birthday:${today.year}`)) {
            if (await awardBirthday(p.store_id, id, p.birthday_points, p.birthday_rule_id, today.year)) counts.birthdays++;
          }
        }
        if (p.points_expiry_months !== null) {
          for (const c of await life.expiryCandidates(p.store_id)) {
            if (c.last_activity_ms === null) continue;
            const expiresMs = addMonths(c.last_activity_ms, p.points_expiry_months);
            if (expiresMs <= nowMs) {
              if (await expire(p.store_id, c.loyalty_customer_id, p.points_expiry_months, nowMs)) counts.expired++;
            } else if (expiresMs - EXPIRY_REMINDER_MS <= nowMs && c.email && c.status !== "blocked") {
              if (await remind(p.store_id, { loyalty_customer_id: c.loyalty_customer_id, email: c.email, balance: c.balance }, c.last_activity_ms, expiresMs)) counts.reminders++;
            }
          }
        }
      }
      for (const row of await life.pendingDue(nowMs, 500)) {
        const confirmed = await transaction(db, async () => {
          // Exactly-once: row lock on the customer, then a conditional update pending → confirmed (changes = 1 for one caller only);
          // the ledger's unique order index backs it.
          const c = await repo.lockCustomer(row.store_id, row.loyalty_customer_id);
          if (!c || !(await life.settlePending(row.store_id, row.pending_id, "confirmed"))) return false;
          const fresh = (await life.pendingByOrder(row.store_id, row.order_id))!;
          const points = remainingPoints(fresh);
          if (points > 0 && c.status !== "blocked") {
            await appendEarning(repo, row.store_id, row.loyalty_customer_id, points, row.description, {
              earningRuleId: row.earning_rule_id ?? undefined,
              orderId: row.order_id,
              // The pending row's description is `Order <label>` (holdOrderPoints' callers): the label is what follows.
              details: { order: row.description.replace(/^Order /, "") },
            });
          }
          return true;
        });
        if (confirmed) counts.confirmed++;
      }
      return counts;
    },
    loseLifetime,
    /** A customer's redemption transactions (issued rewards), newest first. */
    redemptions: (storeId: string, customerId: string) => life.redemptions(storeId, customerId),
  };
}
export type LoyaltyLifecycle = ReturnType<typeof loyaltyLifecycle>;

/**
 * Hold an order's points for the return window, inside the caller's transaction (which locked the customer).
 * One row per (store, order) (unique key, ON CONFLICT DO NOTHING). @returns false when the order was held before.
 */
export async function holdOrderPoints(
  life: LifecycleRepo,
  o: { storeId: string; customerId: string; orderId: string; points: number; amount: number; ruleId: string; description: string; windowDays: number; nowMs: number },
): Promise<boolean> {
  return life.insertPending({
    pending_id: randomUUID(),
    store_id: o.storeId,
    loyalty_customer_id: o.customerId,
    order_id: o.orderId,
    points: o.points,
    order_amount: o.amount,
    earning_rule_id: o.ruleId,
    description: o.description,
    confirm_after_ms: o.nowMs + o.windowDays * DAY_MS,
    created_ms: o.nowMs,
  });
}

/**
 * A platform refund of `amount` (currency units) on an order, inside the caller's transaction, once per refund ID
 * (`loyalty_refunds` primary key). Pending points lose the refunded share before they are confirmed; confirmed points
 * are reversed in proportion (an `adjustment`, capped at the balance and at what the order earned) and lifetime
 * points fall by the same amount. @returns the points reversed (0 for pending or nothing earned).
 */
export async function applyOrderRefund(
  repo: LoyaltyRepo,
  life: LifecycleRepo,
  r: { storeId: string; refundId: string; orderId: string; amount: number; orderAmount: number | null; label: string; nowMs: number },
): Promise<number> {
  if (!(await life.recordRefund({ storeId: r.storeId, refundId: r.refundId, orderId: r.orderId, amount: r.amount, points: 0, createdMs: r.nowMs }))) return 0;
  const pending = await life.pendingByOrder(r.storeId, r.orderId);
  if (pending) {
    await repo.lockCustomer(r.storeId, pending.loyalty_customer_id); // row lock before the pending row changes (confirmation takes it too)
    if (await life.addPendingRefund(r.storeId, pending.pending_id, r.amount)) return 0;
  }
  const earned: TransactionRow | undefined = await repo.getTransactionByOrder(r.storeId, r.orderId);
  const total = pending?.order_amount ?? r.orderAmount;
  if (!earned || earned.type !== "earning" || earned.points <= 0 || !total || total <= 0) return 0;
  // Exactly-once: the refund's row above is unique; the customer's row lock orders the ledger writes.
  const c = (await repo.lockCustomer(r.storeId, earned.loyalty_customer_id))!;
  const already = await life.refundedPoints(r.storeId, r.orderId);
  // In proportion to the order's points before any refund (a row that was pending holds them), never more than is left.
  const base = pending?.points ?? earned.points;
  const due = Math.min(Math.round(base * Math.min(1, r.amount / total)), earned.points - already);
  if (due <= 0) return 0;
  const points = Math.min(due, c.balance);
  if (points > 0) {
    await repo.insertTransaction({
      transactionId: randomUUID(),
      storeId: r.storeId,
      loyaltyCustomerId: c.loyalty_customer_id,
      type: "adjustment",
      points: -points,
      balanceAfter: c.balance - points,
      description: points === due ? `Order ${r.label} refunded` : `Order ${r.label} refunded (${points} of ${due} points reversed: the rest were already redeemed)`,
      awardKey: `order-refund:${r.refundId}`,
      details: { order: r.label, ...(points === due ? {} : { pointsDue: due }) },
      createdMs: r.nowMs,
    });
  }
  await life.setRefundPoints(r.storeId, r.refundId, due);
  await life.lowerLifetime(r.storeId, c.loyalty_customer_id, due);
  await recalculateTier(repo, r.storeId, c.loyalty_customer_id, { pointsChanged: true });
  return points;
}

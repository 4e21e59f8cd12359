/**
 * Referrals (issue #35 item 2; docs/loyalty.md "Referrals"): a sender shares a link, a friend who opens it gets a
 * friend discount created on the shop platform, and the friend's first order that uses the code gives the sender
 * the referral reward (points or a coupon), once.
 *
 * - `createSender` (`POST /referral_senders {email}`, Okendo's shape): one link per (store, e-mail), made once on
 *   every node (unique key + ON CONFLICT DO NOTHING).
 * - `claimFriend` (the hosted page): the friend's e-mail reserves one discount per (store, friend e-mail) (unique
 *   key + ON CONFLICT DO NOTHING RETURNING), then the platform creates it OUTSIDE any transaction
 *   (platform-rewards.ts `issueDiscount`: Shopify, the signed webhook or the demo platform); created → confirmed
 *   with its e-mail and its `referral.friend_rewarded` event in one commit; failed → the reservation is removed
 *   (nothing half-done) and a 503 says to try again.
 * - `orderChanged` (inside the order webhook's transaction, server/platforms/platforms.service.ts): an order that
 *   uses a friend code, not cancelled, the friend's first, and not from the sender (same e-mail or same platform
 *   customer) records the sender's reward; primary key (store, friend code) + ON CONFLICT DO NOTHING RETURNING make
 *   it exactly-once across nodes and deliveries. Points are an `earning` transaction (award key
 *   `referral:<code>`) for the enrolled loyalty customer with the sender's e-mail; a coupon is recorded `pending`
 *   and created on the platform after the commit (`runDue` retries it).
 * - `orderReversed` (cancellation or refund of the friend's order, same transaction): an awarded reward is
 *   `reversed`, its points taken back by an `adjustment` (capped at the balance, as order cancellations are); a
 *   coupon not yet created is never created.
 * Both rewards are outgoing webhook events (`referral.friend_rewarded`, `referral.sender_rewarded`) and e-mails.
 */
import { randomUUID } from "node:crypto";
import { ApiError, badRequest, notFound } from "../contract/errors.ts";
import { referralSettingsSchema, type ReferralProgramResponse, type ReferralSenderResponse, type ReferralSettings, type ReferralSettingsPatch } from "../contract/referrals.ts";
import { transaction, type Db } from "../db/database.ts";
import type { MailService } from "../mail/mail.service.ts";
import { renderMail } from "../mail/render.ts";
import { zodIssue } from "../shared/zod-issue.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { appendEarning, recalculateTier } from "./ledger.ts";
import type { LoyaltyRepo } from "./loyalty.repo.ts";
import { newRewardCode, RewardUnavailableError, type PlatformRewards } from "./platform-rewards.ts";
import type { ReferralFriendRow, ReferralProgramRow, ReferralRewardRow, ReferralsRepo } from "./referrals.repo.ts";

/** A friend reservation still `pending` after this long (ms) was left by a crash: a new claim replaces it. */
export const STALE_CLAIM_MS = 60_000;
/** Time between two passes of the coupon job (ms). */
export const REFERRAL_JOB_EVERY_MS = 30_000;

/** What an order webhook tells the referral module (inside its transaction). */
export type ReferralOrder = {
  orderId: string;
  label: string;
  email: string;
  platformCustomerId: string | null;
  discountCodes: readonly string[];
  cancelled: boolean;
  orderedMs: number;
};

export type ReferralsDeps = {
  db: Db;
  repo: ReferralsRepo;
  loyalty: LoyaltyRepo;
  stores: StoresRepo;
  mail: MailService;
  rewards: PlatformRewards;
  now?: () => number;
  log?: (line: string) => void;
};

const money = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
/** A discount or coupon in words: "10% off", "5 off". */
export const discountWords = (type: string, value: number): string => (type === "percentage-coupon" ? `${money(value)}% off` : `${money(value)} off`);

/** Create the referrals service (`services.referrals`). */
export function referrals(deps: ReferralsDeps) {
  const { db, repo, loyalty } = deps;
  const now = deps.now ?? Date.now;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  const storeName = async (storeId: string) => (await deps.stores.get(storeId))?.name ?? "the shop";

  async function enabledProgram(storeId: string): Promise<ReferralProgramRow> {
    const p = await repo.program(storeId);
    if (p?.enabled !== 1) throw notFound("This store has no referral program turned on", "referral_program_not_found");
    return p;
  }

  /** The sender's coupon of a pending reward, created on the platform (after commit). @returns whether it now exists. */
  async function createSenderCoupon(r: ReferralRewardRow): Promise<boolean> {
    const sender = await repo.sender(r.store_id, r.referral_sender_id);
    if (!sender || !r.coupon_code) return false;
    const customer = await loyalty.getCustomerByEmail(r.store_id, sender.email);
    const outcome = await deps.rewards.issueDiscount(r.store_id, {
      code: r.coupon_code,
      title: `Referral reward (${r.coupon_code})`,
      type: r.reward_type as "fixed-amount-coupon" | "percentage-coupon",
      value: r.reward_value,
      platformCustomerId: customer?.platform_customer_id ?? null,
      minimumOrderAmount: null,
      startsAt: new Date(r.created_ms).toISOString(),
      endsAt: null,
      description: `Thank you for referring a friend: ${discountWords(r.reward_type, r.reward_value)}`,
      email: sender.email,
      loyaltyCustomerId: customer?.loyalty_customer_id ?? null,
    });
    if (!outcome.ok) {
      deps.log?.(`referral coupon ${r.coupon_code} of store ${r.store_id} not created: ${outcome.message}`);
      return false;
    }
    const name = await storeName(r.store_id);
    await transaction(db, async () => {
      // Exactly-once: conditional UPDATE pending → awarded; only the caller that moved it sends the mail and the event.
      if (!(await repo.moveReward(r.store_id, r.friend_code, "pending", "awarded", now()))) return;
      await senderRewarded({ ...r, state: "awarded" }, sender.email, name);
    });
    return true;
  }

  /** The sender's e-mail and `referral.sender_rewarded` event of an awarded reward (caller's transaction). */
  async function senderRewarded(r: ReferralRewardRow, senderEmail: string, name: string): Promise<void> {
    const what = r.reward_type === "points" ? `${r.reward_value} points` : `a coupon for ${discountWords(r.reward_type, r.reward_value)}: ${r.coupon_code}`;
    const { html, text } = renderMail({
      storeName: name,
      heading: "Your friend placed an order",
      paragraphs: [`Thank you for recommending ${name}. A friend you referred has placed their first order, and you have earned ${what}.`],
    });
    await deps.mail.enqueue({
      storeId: r.store_id,
      kind: "referral-sender-reward",
      to: senderEmail,
      subject: `You earned ${r.reward_type === "points" ? `${r.reward_value} points` : "a reward"} at ${name}`,
      html,
      text,
      dedupeKey: `referral-sender:${r.store_id}:${r.friend_code}`,
    });
    await repo.emitEvent(
      r.store_id,
      `evt_referral_sender_${r.friend_code}`,
      "referral.sender_rewarded",
      r.friend_code,
      {
        referral: {
          referralSenderId: r.referral_sender_id,
          senderEmail,
          friendCode: r.friend_code,
          orderId: r.order_id,
          reward: {
            type: r.reward_type,
            value: r.reward_value,
            ...(r.reward_type === "points" ? { transactionId: r.transaction_id, loyaltyCustomerId: r.loyalty_customer_id } : { couponCode: r.coupon_code }),
          },
        },
      },
      now(),
    );
  }

  const service = {
    /** The store's program settings, or the defaults (off, 10% off for the friend, 500 points for the sender). */
    async settings(storeId: string): Promise<ReferralSettings> {
      const p = await repo.program(storeId);
      if (!p) return { enabled: false, friendDiscountType: "percentage-coupon", friendDiscountValue: 10, friendMinimumOrder: null, senderRewardType: "points", senderRewardValue: 500 };
      return {
        enabled: p.enabled === 1,
        friendDiscountType: p.friend_discount_type,
        friendDiscountValue: Number(p.friend_discount_value),
        friendMinimumOrder: p.friend_minimum_order === null ? null : Number(p.friend_minimum_order),
        senderRewardType: p.sender_reward_type,
        senderRewardValue: Number(p.sender_reward_value),
      };
    },
    /** Save the program (validated by `referralSettingsSchema`). */
    async updateSettings(storeId: string, s: ReferralSettings): Promise<void> {
      await transaction(db, () =>
        repo.saveProgram({
          store_id: storeId,
          enabled: s.enabled ? 1 : 0,
          friend_discount_type: s.friendDiscountType,
          friend_discount_value: s.friendDiscountValue,
          friend_minimum_order: s.friendMinimumOrder,
          sender_reward_type: s.senderRewardType,
          sender_reward_value: s.senderRewardValue,
          updated_ms: now(),
        }),
      );
    },
    /** PATCH /enterprise/settings `referrals`: merge the given fields into the current settings. @throws 400 naming the field. */
    async patchSettings(storeId: string, patch: ReferralSettingsPatch): Promise<void> {
      const merged = referralSettingsSchema.safeParse({ ...(await service.settings(storeId)), ...patch });
      if (!merged.success) throw badRequest(zodIssue(merged.error, "referrals"), "invalid_field");
      await service.updateSettings(storeId, merged.data);
    },
    /** GET /referral_program: the program as a shopper sees it. @throws 404 unknown store. */
    async publicProgram(storeId: string): Promise<ReferralProgramResponse> {
      if (!(await deps.stores.get(storeId))) throw notFound("No store with this ID", "store_not_found");
      const s = await service.settings(storeId);
      return {
        referralProgram: {
          enabled: s.enabled,
          friendDiscount: { type: s.friendDiscountType, value: s.friendDiscountValue, minimumOrderAmount: s.friendMinimumOrder },
          senderReward: { type: s.senderRewardType, value: s.senderRewardValue },
        },
      };
    },
    /** Counts for the admin: senders, friends with a discount, rewards given. */
    stats: (storeId: string) => repo.stats(storeId),

    /**
     * POST /referral_senders: the sender's link (`{publicOrigin}/referrals/{referralSenderId}`), the same for the same
     * e-mail; `created` says whether this call made it. @throws 404 unknown store or no referral program turned on.
     */
    async createSender(storeId: string, email: string, publicOrigin: string): Promise<ReferralSenderResponse & { created: boolean }> {
      await enabledProgram(storeId);
      const newId = randomUUID();
      const sender = await transaction(db, () => repo.ensureSender(storeId, email.trim().toLowerCase(), newId, now()));
      return { referralSenderId: sender.referral_sender_id, shareableLinkUrl: `${publicOrigin}/referrals/${sender.referral_sender_id}`, created: sender.referral_sender_id === newId };
    },

    /** What the hosted page shows for a link, or null when the link is unknown or the program is off. */
    async friendPage(referralSenderId: string): Promise<{ storeId: string; storeName: string; offer: string; minimumOrder: number | null } | null> {
      const sender = await repo.senderById(referralSenderId);
      if (!sender) return null;
      const p = await repo.program(sender.store_id);
      if (p?.enabled !== 1) return null;
      return {
        storeId: sender.store_id,
        storeName: await storeName(sender.store_id),
        offer: discountWords(p.friend_discount_type, Number(p.friend_discount_value)),
        minimumOrder: p.friend_minimum_order === null ? null : Number(p.friend_minimum_order),
      };
    },

    /**
     * The hosted page's form: the friend's discount, created on the platform before it is shown.
     * @returns the code, its words and (Shopify) the shop's `/discount/{code}` link.
     * @throws 404 unknown link / program off; 400 `self_referral` (the sender's own address), `not_new_customer`
     *   (the address has ordered before); 409 `friend_already_referred`; 503 (`RewardUnavailableError`, with
     *   Retry-After) when the platform could not create it: nothing is kept.
     */
    async claimFriend(referralSenderId: string, friendEmail: string): Promise<{ code: string; offer: string; discountUrl?: string; storeName: string }> {
      const sender = await repo.senderById(referralSenderId);
      if (!sender) throw notFound("This referral link is not valid", "referral_link_not_found");
      const storeId = sender.store_id;
      const p = await enabledProgram(storeId);
      const email = friendEmail.trim().toLowerCase();
      if (email === sender.email) throw badRequest("This is your own referral link: share it with a friend instead.", "self_referral");
      const senderCustomer = await loyalty.getCustomerByEmail(storeId, sender.email);
      const friendCustomer = await loyalty.getCustomerByEmail(storeId, email);
      if (senderCustomer && friendCustomer && senderCustomer.platform_customer_id === friendCustomer.platform_customer_id) {
        throw badRequest("This is your own referral link: share it with a friend instead.", "self_referral");
      }
      if (await repo.hasOrderFrom(storeId, email)) throw badRequest("This offer is for new customers: this address has ordered before.", "not_new_customer");
      const offer = discountWords(p.friend_discount_type, Number(p.friend_discount_value));
      const friend: Omit<ReferralFriendRow, "platform" | "platform_discount_id" | "state"> = {
        code: newRewardCode(),
        store_id: storeId,
        referral_sender_id: sender.referral_sender_id,
        email,
        discount_type: p.friend_discount_type,
        discount_value: Number(p.friend_discount_value),
        minimum_order: p.friend_minimum_order === null ? null : Number(p.friend_minimum_order),
        created_ms: now(),
      };
      // Exactly-once per friend: unique (store, friend e-mail) + ON CONFLICT DO NOTHING RETURNING; a pending row left by a crash is replaced.
      const reserved = await transaction(db, async () => {
        const known = await repo.friendByEmail(storeId, email);
        if (known?.state === "pending" && now() - known.created_ms > STALE_CLAIM_MS) await repo.dropPendingFriend(storeId, known.code);
        return repo.reserveFriend(friend);
      });
      if (!reserved) throw new ApiError(409, "This address already has a friend discount from a referral.", "friend_already_referred");
      const outcome = await deps.rewards.issueDiscount(storeId, {
        code: friend.code,
        title: `Referral discount (${friend.code})`,
        type: friend.discount_type,
        value: friend.discount_value,
        platformCustomerId: friendCustomer?.platform_customer_id ?? null,
        minimumOrderAmount: friend.minimum_order,
        startsAt: new Date(friend.created_ms).toISOString(),
        endsAt: null,
        description: `Referral: ${offer} your first order`,
        email,
        loyaltyCustomerId: friendCustomer?.loyalty_customer_id ?? null,
      });
      if (!outcome.ok) {
        deps.log?.(`referral discount ${friend.code} of store ${storeId} not created: ${outcome.message}`);
        await transaction(db, () => repo.dropPendingFriend(storeId, friend.code)); // nothing half-done: the friend may try again
        throw new RewardUnavailableError("Your discount could not be created at the shop just now. Please try again in a moment.", outcome.code, outcome.retryAfterSeconds);
      }
      const name = await storeName(storeId);
      await transaction(db, async () => {
        if (!(await repo.confirmFriend(storeId, friend.code, outcome.platform, outcome.discountId))) return;
        const { html, text } = renderMail({
          storeName: name,
          heading: `Your ${offer} code`,
          paragraphs: [
            `A friend invited you to ${name}. Use the code ${friend.code} at checkout for ${offer} your first order${friend.minimum_order ? ` of ${money(friend.minimum_order)} or more` : ""}.`,
          ],
          ...(outcome.discountUrl ? { action: { label: "Shop with your discount", url: outcome.discountUrl } } : {}),
        });
        await deps.mail.enqueue({
          storeId,
          kind: "referral-friend-discount",
          to: email,
          subject: `Your ${offer} code for ${name}`,
          html,
          text,
          dedupeKey: `referral-friend:${storeId}:${friend.code}`,
        });
        await repo.emitEvent(
          storeId,
          `evt_referral_friend_${friend.code}`,
          "referral.friend_rewarded",
          friend.code,
          {
            referral: {
              referralSenderId: sender.referral_sender_id,
              friendEmail: email,
              code: friend.code,
              platform: outcome.platform,
              discount: { type: friend.discount_type, value: friend.discount_value, minimumOrderAmount: friend.minimum_order },
            },
          },
          now(),
        );
      });
      return { code: friend.code, offer, storeName: name, ...(outcome.discountUrl ? { discountUrl: outcome.discountUrl } : {}) };
    },

    /**
     * An order arrived or changed (inside the order webhook's transaction). Records the sender's reward when the
     * order uses a friend code (see the module comment). @returns calls to make after the commit (a coupon to create).
     */
    async orderChanged(storeId: string, order: ReferralOrder): Promise<(() => Promise<unknown>)[]> {
      if (order.cancelled) {
        await service.orderReversed(storeId, order.orderId, order.label);
        return [];
      }
      const codes = [...new Set(order.discountCodes.map((c) => c.trim().toUpperCase()).filter(Boolean))].slice(0, 50);
      const friends = await repo.friendsByCodes(storeId, codes);
      if (!friends.length) return [];
      const p = await repo.program(storeId);
      if (p?.enabled !== 1) return [];
      const after: (() => Promise<unknown>)[] = [];
      for (const friend of friends) {
        if (await repo.reward(storeId, friend.code)) continue; // a second reward for the same friend: refused
        const sender = await repo.sender(storeId, friend.referral_sender_id);
        if (!sender) continue;
        const senderCustomer = await loyalty.getCustomerByEmail(storeId, sender.email);
        // Self-referral: the order comes from the sender (same e-mail or same platform customer).
        if (order.email === sender.email || (order.platformCustomerId && senderCustomer && senderCustomer.platform_customer_id === order.platformCustomerId)) continue;
        if (order.email && (await repo.hasEarlierOrder(storeId, order.email, order.orderId, order.orderedMs))) continue; // not the friend's first order
        const t = now();
        const base = {
          store_id: storeId,
          friend_code: friend.code,
          order_id: order.orderId,
          referral_sender_id: sender.referral_sender_id,
          reward_value: Number(p.sender_reward_value),
          created_ms: t,
        };
        if (p.sender_reward_type === "points") {
          if (senderCustomer?.status !== "enrolled") continue; // points need an enrolled loyalty customer with the sender's e-mail
          await loyalty.lockCustomer(storeId, senderCustomer.loyalty_customer_id); // row lock before the award (unique key behind it)
          if (!(await repo.insertReward({ ...base, reward_type: "points", loyalty_customer_id: senderCustomer.loyalty_customer_id, transaction_id: null, coupon_code: null, state: "awarded" })))
            continue;
          const points = Math.round(Number(p.sender_reward_value));
          const row = await appendEarning(loyalty, storeId, senderCustomer.loyalty_customer_id, points, "Referral: a friend's first order", { awardKey: `referral:${friend.code}` });
          await repo.setRewardTransaction(storeId, friend.code, row.transaction_id);
          await senderRewarded(
            { ...base, reward_type: "points", loyalty_customer_id: senderCustomer.loyalty_customer_id, transaction_id: row.transaction_id, coupon_code: null, state: "awarded", updated_ms: t },
            sender.email,
            await storeName(storeId),
          );
        } else {
          const r: ReferralRewardRow = {
            ...base,
            reward_type: p.sender_reward_type,
            loyalty_customer_id: senderCustomer?.loyalty_customer_id ?? null,
            transaction_id: null,
            coupon_code: newRewardCode(),
            state: "pending",
            updated_ms: t,
          };
          if (!(await repo.insertReward(r))) continue;
          after.push(() => createSenderCoupon(r));
        }
      }
      return after;
    },

    /**
     * The friend's order was cancelled or refunded (inside the webhook's transaction): its rewards are reversed once
     * (conditional UPDATE awarded/pending → reversed); points back by an `adjustment`, capped at the balance.
     */
    async orderReversed(storeId: string, orderId: string, label: string): Promise<void> {
      for (const r of await repo.rewardsOfOrder(storeId, orderId)) {
        if (r.state === "reversed") continue;
        if (r.reward_type === "points" && r.loyalty_customer_id) {
          const c = await loyalty.lockCustomer(storeId, r.loyalty_customer_id);
          if (!c || !(await repo.moveReward(storeId, r.friend_code, r.state, "reversed", now()))) continue;
          const points = Math.min(Math.round(r.reward_value), c.balance);
          if (points > 0) {
            await loyalty.insertTransaction({
              transactionId: randomUUID(),
              storeId,
              loyaltyCustomerId: c.loyalty_customer_id,
              type: "adjustment",
              points: -points,
              balanceAfter: c.balance - points,
              description: `Referral reversed: the friend's order ${label} was cancelled or refunded`,
              awardKey: `referral-reversed:${r.friend_code}`,
              details: { order: label },
              createdMs: now(),
            });
            await recalculateTier(loyalty, storeId, c.loyalty_customer_id, { pointsChanged: true });
          }
        } else {
          await repo.moveReward(storeId, r.friend_code, r.state, "reversed", now()); // a pending coupon is never created
        }
      }
    },

    /** One pass of the job at `nowMs`: create the pending sender coupons (older than a minute: the webhook's own call comes first). */
    async runDue(nowMs = now()): Promise<{ created: number; pending: number }> {
      const report = { created: 0, pending: 0 };
      for (const r of await repo.pendingRewards(nowMs - STALE_CLAIM_MS, 50)) {
        try {
          report[(await createSenderCoupon(r)) ? "created" : "pending"]++;
        } catch (error) {
          report.pending++;
          deps.log?.(`referral coupon ${r.coupon_code}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return report;
    },
    /** Start the coupon job (server/http/main.ts). */
    start(): void {
      if (timer) return;
      timer = setInterval(() => {
        running ??= service
          .runDue()
          .catch((error: unknown) => deps.log?.(`referrals job: ${String(error)}`))
          .finally(() => (running = null));
      }, REFERRAL_JOB_EVERY_MS);
      timer.unref();
    },
    /** Stop the job and wait for a pass under way. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
  return service;
}
export type Referrals = ReturnType<typeof referrals>;

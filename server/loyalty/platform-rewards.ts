/**
 * Rewards that work at checkout (issue #35 item 1; docs/loyalty.md "Rewards at checkout"): a redemption's coupon
 * is created on the store's shop platform BEFORE its code is shown, and points are never lost for a code that
 * does not work.
 *
 * The platform of a store, in this order:
 * 1. a Shopify shop domain is set (docs/platforms.md): the Admin GraphQL API with the store's sealed Admin API
 *    token (server/platforms/shopify-discounts.ts); no token → 503 `platform_token_missing`;
 * 2. else a WooCommerce site is set (docs/platforms.md "WooCommerce"): a coupon through the shop's REST API with the
 *    store's sealed consumer key and secret (server/platforms/woocommerce.ts); no key → 503 `platform_token_missing`;
 * 3. else an enabled webhook subscription to `loyalty_reward.created`: a signed POST (docs/webhooks.md signature)
 *    to each, all of which must answer 2xx;
 * 4. else the demo store: the built-in demo platform (codes listed in the admin, not valid at a real checkout);
 * 5. else 503 `platform_not_connected`.
 *
 * A redemption runs in three steps (exactly-once across nodes):
 * 1. one transaction with the customer's row locked (`lockCustomer`: FOR UPDATE on PostgreSQL): the checks of the
 *    ledger (enrolled, rule, tier) and "enough points" against the balance minus the points of the customer's
 *    pending rewards; then a `pending` reward row with a new code is written (it reserves the points);
 * 2. the platform call, outside any transaction;
 * 3. created → one transaction: customer row locked, the row moved `pending → confirmed` by a conditional UPDATE
 *    (`changes` checked) and the redemption transaction appended in the same commit; refused → the row `failed`
 *    (nothing taken) and 503 with `Retry-After`; no answer (timeout, dropped connection, 5xx) → the row stays
 *    pending and 503: the reconciler (`runDue`) asks the platform by code once the row is older than STALE_MS and
 *    either takes the points (discount exists) or marks it failed (it does not). A crash between "discount created"
 *    and "points taken" leaves a pending row the reconciler settles the same way, idempotent by code.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { RedemptionResponse } from "../contract/loyalty.responses.ts";
import { ApiError, notFound } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import type { PlatformsRepo } from "../platforms/platforms.repo.ts";
import type { SecretBox } from "../platforms/secret-box.ts";
import { createShopifyDiscount, findShopifyDiscount, type RewardDiscount, type ShopifyAdmin } from "../platforms/shopify-discounts.ts";
import { createWooCoupon, findWooCoupon, type WooSite } from "../platforms/woocommerce.ts";
import type { Resolve } from "../shared/outgoing-request.ts";
import { postOnce } from "../webhooks/delivery.ts";
import { signatureHeader, SIGNATURE_HEADER } from "../webhooks/signature.ts";
import { conflict, forbidden } from "./ledger.ts";
import type { LoyaltyRepo, RedemptionRuleRow } from "./loyalty.repo.ts";
import type { PlatformRewardsRepo, RewardPlatform, RewardRow } from "./platform-rewards.repo.ts";
import { tierAllows } from "./tiers.ts";

/** A pending reward older than this (ms) is the reconciler's: longer than any platform call (10 s Shopify, 15 s webhook). */
export const STALE_MS = 60_000;
/** A pending reward the platform cannot be asked about is failed after this long (ms): one day. */
export const GIVE_UP_MS = 86_400_000;
/** Time between two reconciler passes (ms). */
export const RECONCILE_EVERY_MS = 30_000;
/** Retry-After (s) of a platform that failed, and of a store without a usable platform connection. */
export const RETRY_AFTER_FAILED_S = 30;
export const RETRY_AFTER_UNCONNECTED_S = 3_600;

/** The 503 of a reward that could not be created (the shopper may retry; nothing was taken). */
export class RewardUnavailableError extends ApiError {
  readonly retryAfterSeconds: number;
  constructor(description: string, code: string, retryAfterSeconds: number) {
    super(503, description, code);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A coupon code: `CHORUS-` + 12 characters of Crockford base32 (60 random bits), in groups of four. */
export function newRewardCode(): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  let out = "";
  for (const b of randomBytes(12)) out += alphabet[b & 31];
  return `CHORUS-${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}`;
}

/** Where a store's rewards are created, or why they cannot be. */
export type RewardTarget =
  | { platform: "shopify"; shop: ShopifyAdmin }
  | { platform: "woocommerce"; site: WooSite }
  | { platform: "webhook" }
  | { platform: "demo" }
  | { platform: null; code: "platform_not_connected" | "platform_token_missing"; description: string };

/** The body of a `loyalty_reward.created` webhook (docs/webhooks.md "Event types": `loyalty_reward.created`). */
export type RewardWebhookBody = {
  eventId: string;
  eventType: "loyalty_reward.created";
  dateCreated: string;
  storeId: string;
  data: { reward: RewardDiscount & { description: string; usageLimit: 1; loyaltyCustomerId: string | null; email: string | null; surveyResponseId?: string } };
};

/** A coupon not paid with points (a survey response's reward, docs/surveys.md "Rewards"): created on the platform as a reward is. */
export type PlatformCoupon = RewardDiscount & { description: string; email: string | null; surveyResponseId: string };
/** How creating a coupon ended: created (on `platform`), or not (`message` says why; try again later). */
export type CouponOutcome = { ok: true; platform: RewardPlatform; discountId: string | null } | { ok: false; message: string };

export type PlatformRewardsDeps = {
  db: Db;
  repo: PlatformRewardsRepo;
  loyalty: LoyaltyRepo;
  platforms: PlatformsRepo;
  /** Opens the sealed Admin API token (the platform secret box). */
  platformBox: SecretBox;
  /** Opens webhook signing secrets (the webhook secret box). */
  webhookBox: SecretBox;
  /** Whether the store is the demo store (its fallback is the demo platform). */
  isDemoStore: (storeId: string) => boolean;
  /** SHOPIFY_ADMIN_API_URL, read at call time (a stand-in in tests). */
  shopifyApiUrl: () => string | undefined;
  allowLoopback: boolean;
  resolve?: Resolve;
  /** Longest Shopify Admin API call (ms; default SHOPIFY_CALL_TIMEOUT_MS). */
  shopifyTimeoutMs?: number;
  now?: () => number;
  log?: (line: string) => void;
};

/** Create the rewards service (`services.platformRewards`). */
export function platformRewards(deps: PlatformRewardsDeps) {
  const { db, repo, loyalty } = deps;
  const now = deps.now ?? Date.now;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  /** The platform of `storeId` (see the module comment). */
  async function targetOf(storeId: string): Promise<RewardTarget> {
    const c = await deps.platforms.connection(storeId);
    if (c?.shop_domain) {
      let token: string | undefined;
      try {
        token = c.admin_token_encrypted ? deps.platformBox.open(c.admin_token_encrypted) : undefined;
      } catch {
        token = undefined; // sealed under another installation key: as if unset
      }
      if (!token) {
        return {
          platform: null,
          code: "platform_token_missing",
          description: "Rewards cannot be created right now: the store has connected Shopify but not set its Admin API access token. Please try again later.",
        };
      }
      return {
        platform: "shopify",
        shop: { shopDomain: c.shop_domain, accessToken: token, apiUrl: deps.shopifyApiUrl(), allowLoopback: deps.allowLoopback, resolve: deps.resolve, timeoutMs: deps.shopifyTimeoutMs },
      };
    }
    if (c?.woo_site_url) {
      let key: string | undefined, secret: string | undefined;
      try {
        key = c.woo_consumer_key_encrypted ? deps.platformBox.open(c.woo_consumer_key_encrypted) : undefined;
        secret = c.woo_consumer_secret_encrypted ? deps.platformBox.open(c.woo_consumer_secret_encrypted) : undefined;
      } catch {
        key = undefined; // sealed under another installation key: as if unset
      }
      if (!key || !secret) {
        return {
          platform: null,
          code: "platform_token_missing",
          description: "Rewards cannot be created right now: the store has connected WooCommerce but not set its REST API key. Please try again later.",
        };
      }
      return {
        platform: "woocommerce",
        site: { siteUrl: c.woo_site_url, consumerKey: key, consumerSecret: secret, allowLoopback: deps.allowLoopback, resolve: deps.resolve, timeoutMs: deps.shopifyTimeoutMs },
      };
    }
    if (await repo.hasRewardSubscriber(storeId)) return { platform: "webhook" };
    if (deps.isDemoStore(storeId)) return { platform: "demo" };
    return { platform: null, code: "platform_not_connected", description: "Rewards cannot be created right now: the store has not connected a shop platform. Please try again later." };
  }

  /** What the platform must create for `row`. */
  async function discountOf(row: RewardRow, rule: RedemptionRuleRow | undefined): Promise<RewardDiscount & { description: string; email: string | null }> {
    const customer = await loyalty.getCustomer(row.store_id, row.loyalty_customer_id);
    const conditions = await repo.conditions(row.store_id, row.redemption_rule_id);
    const days = conditions?.code_expires_after_days ?? null;
    return {
      code: row.code,
      title: `${rule?.name ?? "Loyalty reward"} (${row.code})`,
      type: row.reward_type as RewardDiscount["type"],
      value: row.reward_value,
      platformCustomerId: customer?.platform_customer_id ?? null,
      minimumOrderAmount: conditions?.minimum_order_amount ?? null,
      startsAt: new Date(row.created_ms).toISOString(),
      endsAt: days ? new Date(row.created_ms + days * 86_400_000).toISOString() : null,
      description: rule?.reward_description ?? "",
      email: customer?.email ?? null,
    };
  }

  /** POST the signed `loyalty_reward.created` event to every subscriber. @returns null when all answered 2xx, else why not. */
  async function sendRewardWebhook(row: RewardRow, rule: RedemptionRuleRow | undefined): Promise<string | null> {
    const d = await discountOf(row, rule);
    return sendWebhook(row.store_id, row.created_ms, { ...d, usageLimit: 1, loyaltyCustomerId: row.loyalty_customer_id });
  }

  /** POST the signed `loyalty_reward.created` event of `reward` to every subscriber of the store. @returns null when all answered 2xx, else why not. */
  async function sendWebhook(storeId: string, createdMs: number, reward: RewardWebhookBody["data"]["reward"]): Promise<string | null> {
    const subscribers = await repo.rewardSubscribers(storeId);
    if (!subscribers.length) return "no webhook subscription to loyalty_reward.created";
    const eventId = `evt_reward_${reward.code}`; // the same for every retry of this reward: receivers dedupe by it (or by code)
    const body: RewardWebhookBody = { eventId, eventType: "loyalty_reward.created", dateCreated: new Date(createdMs).toISOString(), storeId, data: { reward } };
    const json = JSON.stringify(body);
    for (const s of subscribers) {
      let secret: string;
      try {
        secret = deps.webhookBox.open(s.secret_encrypted);
      } catch {
        return `the secret of ${s.url} cannot be opened`;
      }
      const outcome = await postOnce(
        s.url,
        json,
        {
          "content-type": "application/json; charset=utf-8",
          [SIGNATURE_HEADER]: signatureHeader(secret, Math.floor(now() / 1000), json),
          "chorus-event-id": eventId,
          "chorus-event-type": "loyalty_reward.created",
          "chorus-delivery-id": randomUUID(),
        },
        deps.allowLoopback,
        deps.resolve,
      );
      if (outcome.error) return `${s.url}: ${outcome.error}`;
    }
    return null;
  }

  /** Ask the platform to create `row`'s discount. */
  async function create(target: Exclude<RewardTarget, { platform: null }>, row: RewardRow, rule: RedemptionRuleRow | undefined) {
    if (target.platform === "demo") return { ok: true as const, discountId: `demo:${row.code}` };
    if (target.platform === "webhook") {
      const why = await sendRewardWebhook(row, rule);
      return why ? { ok: false as const, definite: true, message: why } : { ok: true as const, discountId: null };
    }
    if (target.platform === "woocommerce") return createWooCoupon(target.site, await discountOf(row, rule));
    return createShopifyDiscount(target.shop, await discountOf(row, rule));
  }

  /**
   * Take the points of a reward whose discount exists: customer row locked, `pending → confirmed` by a conditional
   * UPDATE and the redemption transaction in the same commit (exactly-once: only the caller whose UPDATE changed the
   * row appends the transaction). @returns the reward row as it is after.
   */
  async function settle(row: RewardRow, discountId: string | null, ruleName: string, reconciled = false): Promise<RewardRow> {
    return transaction(db, async () => {
      const c = (await loyalty.lockCustomer(row.store_id, row.loyalty_customer_id))!;
      const transactionId = randomUUID();
      if (await repo.confirm(row.store_id, row.code, transactionId, discountId, now(), reconciled)) {
        await loyalty.insertTransaction({
          transactionId,
          storeId: row.store_id,
          loyaltyCustomerId: row.loyalty_customer_id,
          type: "redemption",
          points: -row.points_cost,
          balanceAfter: c.balance - row.points_cost,
          description: `Redeemed: ${ruleName}`,
          details: { reward: ruleName },
          redemptionRuleId: row.redemption_rule_id,
          couponCode: row.code,
          createdMs: now(),
        });
      }
      return (await repo.get(row.store_id, row.code))!;
    });
  }

  /** Settle one stale pending reward (the reconciler). @returns "confirmed", "failed" or "pending" (asked again later). */
  async function reconcile(row: RewardRow, nowMs: number): Promise<RewardRow["state"]> {
    const rule = await loyalty.getRedemptionRule(row.store_id, row.redemption_rule_id);
    const name = rule?.name ?? "Reward";
    let exists: string | null | undefined;
    if (row.platform === "demo") exists = `demo:${row.code}`;
    else if (row.platform === "webhook") exists = (await sendRewardWebhook(row, rule)) === null ? null : undefined;
    else {
      const target = await targetOf(row.store_id);
      exists =
        target.platform === "shopify" && row.platform === "shopify"
          ? await findShopifyDiscount(target.shop, row.code)
          : target.platform === "woocommerce" && row.platform === "woocommerce"
            ? await findWooCoupon(target.site, row.code)
            : undefined;
    }
    if (row.platform === "webhook" && exists === null) return (await settle(row, null, name, true)).state; // the shop answered 2xx for the code: it exists
    if (exists) return (await settle(row, exists, name, true)).state;
    if (exists === null || nowMs - row.created_ms > GIVE_UP_MS) {
      await transaction(db, () => repo.fail(row.store_id, row.code, exists === null ? "the platform has no discount with this code" : "the platform could not be asked for a day", nowMs, true));
      return "failed";
    }
    return "pending";
  }

  const service = {
    /** Where `storeId`'s rewards are created, or why they cannot be (the admin says why before a reward is turned on). */
    target: targetOf,

    /**
     * POST /loyalty/customer/redemptions: the coupon is created on the platform first. @returns the coupon.
     * @throws 403 not enrolled / blocked / tier, 404 unknown rule, 409 insufficient points (pending rewards count as
     * spent), 503 `platform_not_connected`, `platform_token_missing`, `platform_unavailable` (with `Retry-After`):
     * nothing taken.
     */
    async redeem(storeId: string, customerId: string, redemptionRuleId: string): Promise<RedemptionResponse> {
      const target = await targetOf(storeId);
      const { row, rule } = await transaction(db, async () => {
        // Exactly-once: row lock on the customer; the pending rewards reserve their points, so concurrent redemptions
        // (any node) see each other's reservations and no more rewards are created than the balance pays for.
        const c = (await loyalty.lockCustomer(storeId, customerId))!;
        if (c.status === "blocked") throw forbidden("This customer cannot take part in the loyalty program", "customer_blocked");
        if (c.status !== "enrolled") throw forbidden("Join the loyalty program before redeeming points", "customer_not_enrolled");
        const rule = await loyalty.getRedemptionRule(storeId, redemptionRuleId);
        if (!rule || rule.enabled !== 1) throw notFound("No redemption rule with this redemptionRuleId", "redemption_rule_not_found");
        if (!tierAllows(c, await loyalty.vipTiers(storeId), rule.minimum_vip_tier_id)) throw forbidden("This reward needs a higher VIP tier", "vip_tier_required");
        const reserved = await repo.reservedPoints(storeId, customerId);
        if (c.balance - reserved < rule.points_cost) {
          throw conflict(
            `Not enough points: this reward costs ${rule.points_cost} points and the balance is ${c.balance}${reserved ? ` (${reserved} of them held by a reward still being created)` : ""}`,
            "insufficient_points",
          );
        }
        if (target.platform === null) throw new RewardUnavailableError(target.description, target.code, RETRY_AFTER_UNCONNECTED_S);
        const row: RewardRow = {
          code: newRewardCode(),
          store_id: storeId,
          loyalty_customer_id: customerId,
          redemption_rule_id: rule.redemption_rule_id,
          reward_type: rule.type,
          reward_value: rule.reward_value,
          points_cost: rule.points_cost,
          platform: target.platform as RewardPlatform,
          state: "pending",
          platform_discount_id: null,
          error: null,
          transaction_id: null,
          created_ms: now(),
          updated_ms: now(),
        };
        await repo.insertPending(row);
        return { row, rule };
      });
      if (target.platform === null) throw new Error("unreachable");
      const outcome = await create(target, row, rule);
      if (!outcome.ok) {
        deps.log?.(`reward ${row.code} of store ${storeId} not created: ${outcome.message}`);
        // Refused: nothing exists, the reservation is released. No answer: the reconciler asks the platform later.
        await transaction(db, async () => {
          if (outcome.definite) await repo.fail(storeId, row.code, outcome.message, now());
          else await repo.noteError(storeId, row.code, outcome.message, now());
        });
        throw new RewardUnavailableError("The reward could not be created at the shop just now, and no points were taken. Please try again in a moment.", "platform_unavailable", RETRY_AFTER_FAILED_S);
      }
      const settled = await settle(row, outcome.discountId, rule.name);
      const conditions = await repo.conditions(storeId, rule.redemption_rule_id);
      const days = conditions?.code_expires_after_days ?? null;
      return {
        redemption: {
          transactionId: settled.transaction_id!,
          reward: {
            type: "coupon",
            code: row.code,
            description: rule.reward_description,
            value: rule.reward_value,
            platform: row.platform,
            ...(target.platform === "shopify" ? { discountUrl: `https://${target.shop.shopDomain}/discount/${encodeURIComponent(row.code)}` } : {}),
            ...(days ? { expiresAt: new Date(row.created_ms + days * 86_400_000).toISOString() } : {}),
          },
        },
      };
    },

    /**
     * Create a discount that is not paid with points (a referral's friend discount or sender coupon, docs/loyalty.md
     * "Referrals") on the store's platform, the same way as a redemption's: Shopify Admin API, the signed
     * `loyalty_reward.created` webhook (with `loyaltyCustomerId` empty when no loyalty customer is behind it), a
     * WooCommerce coupon, or the demo platform. Makes network calls: never call it inside a transaction.
     * @returns the platform and discount ID (and the Shopify `/discount/{code}` link), or why not (nothing was created
     * that Chorus knows of; `definite: false`: the platform may have created it, e.g. a timeout).
     */
    async issueDiscount(
      storeId: string,
      d: RewardDiscount & { description: string; email: string | null; loyaltyCustomerId: string | null },
    ): Promise<{ ok: true; platform: RewardPlatform; discountId: string | null; discountUrl?: string } | { ok: false; code: string; message: string; retryAfterSeconds: number }> {
      const target = await targetOf(storeId);
      if (target.platform === null) return { ok: false, code: target.code, message: target.description, retryAfterSeconds: RETRY_AFTER_UNCONNECTED_S };
      if (target.platform === "demo") return { ok: true, platform: "demo", discountId: `demo:${d.code}` };
      if (target.platform === "webhook") {
        const subscribers = await repo.rewardSubscribers(storeId);
        const eventId = `evt_reward_${d.code}`;
        const { description, email, loyaltyCustomerId, ...discount } = d;
        const json = JSON.stringify({
          eventId,
          eventType: "loyalty_reward.created",
          dateCreated: new Date(now()).toISOString(),
          storeId,
          data: { reward: { ...discount, description, email, usageLimit: 1, loyaltyCustomerId: loyaltyCustomerId ?? "" } },
        });
        for (const s of subscribers) {
          let secret: string;
          try {
            secret = deps.webhookBox.open(s.secret_encrypted);
          } catch {
            return { ok: false, code: "platform_unavailable", message: `the secret of ${s.url} cannot be opened`, retryAfterSeconds: RETRY_AFTER_FAILED_S };
          }
          const outcome = await postOnce(
            s.url,
            json,
            {
              "content-type": "application/json; charset=utf-8",
              [SIGNATURE_HEADER]: signatureHeader(secret, Math.floor(now() / 1000), json),
              "chorus-event-id": eventId,
              "chorus-event-type": "loyalty_reward.created",
              "chorus-delivery-id": randomUUID(),
            },
            deps.allowLoopback,
            deps.resolve,
          );
          if (outcome.error) return { ok: false, code: "platform_unavailable", message: `${s.url}: ${outcome.error}`, retryAfterSeconds: RETRY_AFTER_FAILED_S };
        }
        return { ok: true, platform: "webhook", discountId: null };
      }
      if (target.platform === "woocommerce") {
        const coupon = await createWooCoupon(target.site, d);
        if (!coupon.ok) return { ok: false, code: "platform_unavailable", message: coupon.message, retryAfterSeconds: RETRY_AFTER_FAILED_S };
        return { ok: true, platform: "woocommerce", discountId: coupon.discountId };
      }
      const outcome = await createShopifyDiscount(target.shop, d);
      if (!outcome.ok) return { ok: false, code: "platform_unavailable", message: outcome.message, retryAfterSeconds: RETRY_AFTER_FAILED_S };
      return { ok: true, platform: "shopify", discountId: outcome.discountId, discountUrl: `https://${target.shop.shopDomain}/discount/${encodeURIComponent(d.code)}` };
    },

    /**
     * Create a coupon that costs no points (a survey response's reward, docs/surveys.md "Rewards") on the store's
     * platform, idempotent by its code: a `retry` first asks Shopify (or WooCommerce) whether the code exists (an earlier call may
     * have created it before its answer was lost); webhook receivers dedupe by the event ID `evt_reward_<code>`.
     * Never inside a transaction (network I/O). @returns created, or why not (the caller tries again later).
     */
    async createCoupon(storeId: string, coupon: PlatformCoupon, options: { retry?: boolean } = {}): Promise<CouponOutcome> {
      const target = await targetOf(storeId);
      if (target.platform === null) return { ok: false, message: target.description };
      if (target.platform === "demo") return { ok: true, platform: "demo", discountId: `demo:${coupon.code}` };
      if (target.platform === "webhook") {
        const { email, surveyResponseId, ...d } = coupon;
        const why = await sendWebhook(storeId, Date.parse(coupon.startsAt), { ...d, usageLimit: 1, loyaltyCustomerId: null, email, surveyResponseId });
        return why ? { ok: false, message: why } : { ok: true, platform: "webhook", discountId: null };
      }
      if (target.platform === "woocommerce") {
        if (options.retry) {
          const existing = await findWooCoupon(target.site, coupon.code);
          if (existing) return { ok: true, platform: "woocommerce", discountId: existing };
        }
        const outcome = await createWooCoupon(target.site, coupon);
        return outcome.ok ? { ok: true, platform: "woocommerce", discountId: outcome.discountId } : { ok: false, message: outcome.message };
      }
      if (options.retry) {
        const existing = await findShopifyDiscount(target.shop, coupon.code);
        if (existing) return { ok: true, platform: "shopify", discountId: existing };
      }
      const outcome = await createShopifyDiscount(target.shop, coupon);
      return outcome.ok ? { ok: true, platform: "shopify", discountId: outcome.discountId } : { ok: false, message: outcome.message };
    },

    /** Set a redemption rule's minimum order (currency units) and code expiry (days); null removes one. @throws 404 unknown rule. */
    async setRewardConditions(storeId: string, redemptionRuleId: string, c: { minimumOrderAmount: number | null; expiresAfterDays: number | null }): Promise<void> {
      if (!(await transaction(db, () => repo.setConditions(storeId, redemptionRuleId, c)))) throw notFound("No redemption rule with this ID", "redemption_rule_not_found");
    },

    /** A store's rewards, newest first (the admin lists the demo platform's codes). */
    list: (storeId: string, options: { limit?: number; platform?: RewardPlatform } = {}): Promise<RewardRow[]> => repo.listForStore(storeId, options.limit ?? 50, options.platform),

    /** One reconciler pass at `nowMs`: settle pending rewards older than STALE_MS. @returns how many were confirmed, failed, left pending. */
    async runDue(nowMs = now()): Promise<{ confirmed: number; failed: number; pending: number }> {
      const report = { confirmed: 0, failed: 0, pending: 0 };
      for (const row of await repo.stalePending(nowMs - STALE_MS, 50)) {
        try {
          report[await reconcile(row, nowMs)]++;
        } catch (error) {
          report.pending++;
          deps.log?.(`reward ${row.code}: reconciling failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return report;
    },

    /** Start the reconciler loop (server/http/main.ts). */
    start(): void {
      if (timer) return;
      timer = setInterval(() => {
        running ??= service
          .runDue()
          .catch((error: unknown) => deps.log?.(`rewards reconciler: ${String(error)}`))
          .finally(() => (running = null));
      }, RECONCILE_EVERY_MS);
      timer.unref();
    },
    /** Stop the loop and wait for a pass under way. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
  return service;
}
export type PlatformRewards = ReturnType<typeof platformRewards>;

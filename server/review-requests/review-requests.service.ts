/**
 * Review requests (issue #22 item 2; docs/review-requests.md): per-store settings, one request per
 * fulfilled order, a persisted schedule that sends the request and one reminder through the mail module,
 * the hosted review page's links, and unsubscribing.
 *
 * Never twice: each step of a request is sent by one transaction that re-reads the request,
 * enqueues the message (`mail.enqueue` joins the transaction, dedupe key `review-request:{id}:{step}`) and
 * moves the request on. A crash before the commit leaves both undone; after it, both done. No network I/O
 * happens inside it (the message is only enqueued; the mail sender's own lease covers SMTP), so the
 * transaction is the claim. Exactly-once across processes and nodes: SQLite's write lock (BEGIN IMMEDIATE)
 * makes a second process wait and find the step already taken; on PostgreSQL (several nodes, issue #26 item 3)
 * the request's row is selected `FOR UPDATE SKIP LOCKED` (review-requests.repo.ts `claimDue`): another node skips
 * it while it is held and, once committed, finds the step moved on. The outbox's unique dedupe key backs this up.
 *
 * Skips: a store that turned requests off, an address that unsubscribed from the store, and products the
 * shopper already reviewed (through a link, or any review of that product from the same address); when
 * every product is reviewed nothing is sent.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ApiError, badRequest, notFound } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import type { OutgoingMail } from "../mail/mail.service.ts";
import { normaliseEmail } from "../orders/orders.repo.ts";
import type { SubmissionsService } from "../reviews/submissions.service.ts";
import type { UploadedFile } from "../media/media.service.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { ModerationStatus, SubmitReviewResponse } from "../contract/writes.ts";
import type { StoreReviewsService } from "../store-reviews/store-reviews.service.ts";
import { buildReviewRequestEmail, type ReviewRequestEmail } from "./email.ts";
import type { RequestProductRow, RequestRow, ReviewRequestsRepo } from "./review-requests.repo.ts";
import {
  afterQuietHours,
  applyPatch,
  DEFAULT_SETTINGS,
  reviewRequestSettingsPatchSchema,
  reviewRequestSettingsSchema,
  type ReviewRequestSettings,
  type ReviewRequestSettingsPatch,
} from "./settings.ts";
import { hashToken, newToken, REVIEW_LINK_TTL_MS, TOKEN_PATTERN, UNSUBSCRIBE_LINK_TTL_MS } from "./tokens.ts";
import { zodIssue } from "../shared/zod-issue.ts";

const DAY_MS = 86_400_000;
/** A request whose first message would be due more than this long ago when recorded is not sent (ms): old orders are not mailed. */
export const STALE_AFTER_MS = 30 * DAY_MS;
/** Requests handled per batch of `runDue`. */
const BATCH = 100;

/** What PLATFORM (and the tests) pass when an order is fulfilled (interface 2 of the brief). */
export type OrderFulfilled = {
  storeId: string;
  orderId: string;
  email: string;
  customerName: string | null;
  locale: string | null;
  lines: { productId: string }[];
  fulfilledMs: number;
};

/** The mail module as this service uses it (server/mail/mail.service.ts). */
export type MailQueue = { enqueue(message: OutgoingMail): Promise<{ messageId: string; duplicate: boolean }> };

/** What a review link shows (the hosted page /r/{token}). */
export type LinkState =
  | { state: "invalid" }
  | { state: "expired"; storeName: string }
  | { state: "used"; storeName: string; product: { name: string; imageUrl: string | null }; storeId: string; email: string; orderId: string }
  | {
      state: "open";
      storeName: string;
      storeId: string;
      requestId: string;
      orderId: string;
      customerName: string | null;
      moderation: string;
      publishHeldAfterDays: number | null;
      product: { productId: string; name: string; imageUrl: string | null };
    };

/**
 * What the "rate the shop" step of a review link shows (/r/{token}/shop, docs/review-requests.md "Rate the shop"):
 * `off` when the store does not ask for shop ratings, `rated` when the link's request rated the shop already.
 */
export type ShopRatingState =
  { state: "invalid" } | { state: "off" } | { state: "expired"; storeName: string } | { state: "rated"; storeName: string } | { state: "open"; storeName: string; customerName: string | null };

/** What an unsubscribe link shows (/u/{token}). */
export type UnsubscribeState = { state: "invalid" } | { state: "ok"; storeName: string; maskedEmail: string; already: boolean };

/** One day of the funnel (UTC): requests first sent, requests whose link was first opened, reviews written through links. */
export type FunnelDay = { day: string; sent: number; opened: number; reviewed: number };

/** "alex@example.com" → "a***@example.com" (the unsubscribe page shows whose address it is without giving it away). */
export const maskEmail = (email: string) => {
  const [local, domain] = email.split("@");
  return `${local.slice(0, 1)}***@${domain ?? ""}`;
};

/** Create the review-requests service. */
export function reviewRequestsService(deps: {
  db: Db;
  repo: ReviewRequestsRepo;
  stores: StoresRepo;
  mail: MailQueue;
  submissions: SubmissionsService;
  /** Store reviews, for the "rate the shop" step (server/store-reviews); without it the step is always `off`. */
  storeReviews?: Pick<StoreReviewsService, "submit" | "ratedByRequest">;
  /** The order's number as the shop shows it (order_headers.order_name), when known: `{{orderNumber}}`. */
  orderNumber?: (storeId: string, orderId: string) => Promise<string | null | undefined>;
}) {
  const { db, repo, stores } = deps;

  /** The stored settings of a store, or the defaults. */
  async function get(storeId: string): Promise<ReviewRequestSettings> {
    const json = await repo.settingsJson(storeId);
    if (!json) return structuredClone(DEFAULT_SETTINGS);
    const parsed = reviewRequestSettingsSchema.safeParse({ ...DEFAULT_SETTINGS, ...(JSON.parse(json) as object) });
    return parsed.success ? parsed.data : structuredClone(DEFAULT_SETTINGS);
  }

  /** Resolve a review token to its row, request and product, or a reason it does not work. */
  async function resolveReviewToken(token: string, nowMs: number) {
    if (!TOKEN_PATTERN.test(token)) return { state: "invalid" as const };
    const row = await repo.token(hashToken(token));
    if (!row || row.purpose !== "review" || !row.product_id) return { state: "invalid" as const };
    const request = await repo.get(row.request_id);
    const store = await stores.get(row.store_id);
    if (!request || !store) return { state: "invalid" as const };
    const product = (await repo.products(request.request_id)).find((p) => p.product_id === row.product_id);
    if (!product) return { state: "invalid" as const };
    return { state: "found" as const, row, request, store, product, expired: row.expires_ms <= nowMs || request.status === "cancelled" };
  }

  /** Send (enqueue) the step due of one request, or skip / postpone it; inside the caller's transaction. */
  async function sendStep(request: RequestRow, nowMs: number, origin: string): Promise<"sent" | "skipped" | "postponed" | "failed" | "none"> {
    const step = request.next_step;
    if (!step || request.due_ms === null || request.due_ms > nowMs) return "none";
    const stop = async (reason: string) => {
      await repo.setState(request.request_id, { next_step: null, due_ms: null, skip_reason: reason, ...(step === "request" ? { status: "skipped" as const } : {}) });
      return "skipped" as const;
    };
    const store = await stores.get(request.store_id);
    if (!store) return stop("no-store");
    const settings = await get(request.store_id);
    if (!settings.enabled) return stop("disabled");
    if (await repo.isUnsubscribed(request.store_id, request.email)) return stop("unsubscribed");
    const allowed = afterQuietHours(nowMs, settings);
    if (allowed > nowMs) {
      await repo.setState(request.request_id, { due_ms: allowed });
      return "postponed";
    }
    const products: RequestProductRow[] = [];
    for (const p of await repo.products(request.request_id)) {
      if (p.review_id === null && !(await repo.hasReviewed(request.store_id, p.product_id, request.email))) products.push(p);
    }
    if (products.length === 0) return stop("already-reviewed");
    const link = async (purpose: "review" | "unsubscribe", productId: string | null) => {
      const token = newToken();
      await repo.insertToken({
        token_hash: hashToken(token),
        request_id: request.request_id,
        store_id: request.store_id,
        purpose,
        product_id: productId,
        created_ms: nowMs,
        expires_ms: nowMs + (purpose === "review" ? REVIEW_LINK_TTL_MS : UNSUBSCRIBE_LINK_TTL_MS),
      });
      return `${origin}/${purpose === "review" ? "r" : "u"}/${token}`;
    };
    const linked: { name: string; imageUrl: string | null; reviewUrl: string }[] = [];
    for (const p of products) linked.push({ name: p.name, imageUrl: p.image_url, reviewUrl: await link("review", p.product_id) });
    const email = buildReviewRequestEmail({
      settings,
      storeName: store.name,
      orderId: request.order_id,
      orderNumber: await deps.orderNumber?.(request.store_id, request.order_id),
      customerName: request.customer_name,
      locale: request.locale,
      step,
      origin,
      products: linked,
      unsubscribeUrl: await link("unsubscribe", null),
    });
    await deps.mail.enqueue({
      storeId: request.store_id,
      kind: step === "request" ? "review-request" : "review-request-reminder",
      to: request.email,
      subject: email.subject,
      html: email.html,
      text: email.text,
      headers: email.headers,
      dedupeKey: `review-request:${request.request_id}:${step}`,
    });
    if (step === "request") {
      const reminder = settings.reminderDays === null ? null : afterQuietHours(nowMs + settings.reminderDays * DAY_MS, settings);
      await repo.setState(request.request_id, { status: "sent", sent_ms: nowMs, next_step: reminder === null ? null : "reminder", due_ms: reminder });
    } else {
      await repo.setState(request.request_id, { status: "completed", reminded_ms: nowMs, next_step: null, due_ms: null });
    }
    return "sent";
  }

  return {
    get,

    /**
     * Change the settings with a patch (the `reviewRequests` section of PATCH /enterprise/settings, the admin form).
     * @returns the settings after the change.
     * @throws ApiError 404 (store), 400 naming the field (invalid patch or result).
     */
    async update(storeId: string, patch: unknown): Promise<ReviewRequestSettings> {
      if (!(await stores.get(storeId))) throw notFound("Store not found", "store_not_found");
      const parsed = reviewRequestSettingsPatchSchema.safeParse(patch);
      if (!parsed.success) throw badRequest(zodIssue(parsed.error, "reviewRequests"), "invalid_field");
      const next = reviewRequestSettingsSchema.safeParse(applyPatch(await get(storeId), parsed.data as ReviewRequestSettingsPatch));
      if (!next.success) throw badRequest(zodIssue(next.error, "reviewRequests"), "invalid_field");
      await repo.saveSettings(storeId, JSON.stringify(next.data), Date.now()); // one upsert: atomic on its own
      return next.data;
    },

    /**
     * Record the review request of a fulfilled order (one per order; a second call for the same order
     * changes nothing). Only products the store knows are listed. Nothing is recorded when the store has
     * requests off or no product is known; a request whose first message would be due more than 30 days
     * ago is recorded as skipped (`too-old`), and one to an unsubscribed address as skipped (`unsubscribed`).
     * @returns the request (ID, status, when its first message is due), or null when none was recorded.
     * @throws ApiError 404 (store), 400 (email not an address).
     */
    async orderFulfilled(input: OrderFulfilled, nowMs = Date.now()): Promise<{ requestId: string; status: string; dueMs: number | null } | null> {
      if (!(await stores.get(input.storeId))) throw notFound("Store not found", "store_not_found");
      const email = normaliseEmail(input.email ?? "");
      if (!z.email().max(254).safeParse(email).success) throw badRequest("email must be an e-mail address", "invalid_field");
      const settings = await get(input.storeId);
      if (!settings.enabled) return null;
      return transaction(db, async () => {
        const existing = await repo.byOrder(input.storeId, input.orderId);
        if (existing) return { requestId: existing.request_id, status: existing.status, dueMs: existing.due_ms };
        const productIds: string[] = [];
        for (const id of new Set(input.lines.map((l) => l.productId))) if (await stores.getProduct(input.storeId, id)) productIds.push(id);
        if (productIds.length === 0) return null;
        const due = afterQuietHours(input.fulfilledMs + settings.delayDays * DAY_MS, settings);
        const skip = (await repo.isUnsubscribed(input.storeId, email)) ? "unsubscribed" : due < nowMs - STALE_AFTER_MS ? "too-old" : null;
        const requestId = randomUUID();
        // Exactly-once per order: the unique (store_id, order_id) with ON CONFLICT DO NOTHING; a concurrent call that
        // lost the race answers the winner's request.
        const inserted = await repo.insertRequest({
          request_id: requestId,
          store_id: input.storeId,
          order_id: input.orderId,
          email,
          customer_name: input.customerName?.trim() || null,
          locale: input.locale,
          fulfilled_ms: input.fulfilledMs,
          created_ms: nowMs,
          status: skip ? "skipped" : "scheduled",
          skip_reason: skip,
          next_step: skip ? null : "request",
          due_ms: skip ? null : due,
        });
        if (!inserted) {
          const winner = (await repo.byOrder(input.storeId, input.orderId))!;
          return { requestId: winner.request_id, status: winner.status, dueMs: winner.due_ms };
        }
        for (const [i, id] of productIds.entries()) await repo.insertProduct(requestId, input.storeId, id, i);
        return { requestId, status: skip ? "skipped" : "scheduled", dueMs: skip ? null : due };
      });
    },

    /** Cancel the order's request: nothing more is sent and its links stop working. @returns whether a request was cancelled. */
    async orderCancelled(storeId: string, orderId: string, nowMs = Date.now()): Promise<boolean> {
      return transaction(db, async () => {
        // Exactly-once: the request's row is locked (PostgreSQL) before its status is read.
        const request = await repo.byOrder(storeId, orderId, { lock: true });
        if (!request || request.status === "cancelled") return false;
        await repo.setState(request.request_id, { status: "cancelled", cancelled_ms: nowMs, next_step: null, due_ms: null });
        return true;
      });
    },

    /**
     * Send every step due at `nowMs` (the scheduler's clock): requests, then reminders, each in its own
     * transaction with its message. `origin` is the public origin of the links (PUBLIC_URL).
     * A request whose message cannot be built or enqueued is stopped (skip reason `failed: …`) and counted as failed.
     * @returns how many messages were enqueued, skipped, postponed (quiet hours) and failed.
     */
    async runDue(nowMs: number, origin: string): Promise<{ sent: number; skipped: number; postponed: number; failed: number }> {
      const counts = { sent: 0, skipped: 0, postponed: 0, failed: 0 };
      const seen = new Set<string>();
      for (;;) {
        const ids = (await repo.dueIds(nowMs, BATCH)).filter((id) => !seen.has(id));
        if (ids.length === 0) return counts;
        for (const id of ids) {
          seen.add(id);
          let outcome: Awaited<ReturnType<typeof sendStep>>;
          try {
            // Exactly-once: the row lock of claimDue (FOR UPDATE SKIP LOCKED on PostgreSQL) held until this commits.
            outcome = await transaction(db, async () => {
              const request = await repo.claimDue(id, nowMs);
              return request ? sendStep(request, nowMs, origin) : "none";
            });
          } catch (error) {
            // One request that cannot be sent (e.g. an address the mail module refuses) must not stop the others:
            // it is stopped with the reason, which the admin's counts show as skipped.
            const reason = `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300);
            await transaction(db, async () => {
              const request = await repo.get(id, { lock: true });
              if (request?.next_step) await repo.setState(id, { next_step: null, due_ms: null, skip_reason: reason, ...(request.next_step === "request" ? { status: "skipped" as const } : {}) });
            });
            outcome = "failed";
          }
          if (outcome !== "none") counts[outcome]++;
        }
      }
    },

    /** The earliest time a step is due, or null (the scheduler may sleep until then). */
    async nextDueMs(): Promise<number | null> {
      const id = (await repo.dueIds(Number.MAX_SAFE_INTEGER, 1))[0];
      return id ? ((await repo.get(id))?.due_ms ?? null) : null;
    },

    /** The request of an order (tests, admin). */
    byOrder(storeId: string, orderId: string): Promise<RequestRow | undefined> {
      return repo.byOrder(storeId, orderId);
    },

    /**
     * What the review page of `token` shows; an open link records that the request was opened (the funnel's "opened").
     */
    async openReviewLink(token: string, nowMs = Date.now()): Promise<LinkState> {
      const found = await resolveReviewToken(token, nowMs);
      if (found.state === "invalid") return found;
      const { request, store, product, expired } = found;
      const shown = { name: product.name, imageUrl: product.image_url };
      // The store, address and order go with the post-review survey the thank-you page shows (docs/surveys.md "Post-review").
      if (product.review_id !== null) return { state: "used", storeName: store.name, product: shown, storeId: store.storeId, email: request.email, orderId: request.order_id };
      if (expired) return { state: "expired", storeName: store.name };
      if (request.opened_ms === null) await repo.markOpened(request.request_id, nowMs); // conditional UPDATE (opened_ms IS NULL): the first opening wins
      return {
        state: "open",
        storeName: store.name,
        storeId: store.storeId,
        requestId: request.request_id,
        orderId: request.order_id,
        customerName: request.customer_name,
        moderation: store.moderation,
        publishHeldAfterDays: store.publishHeldAfterDays,
        product: { productId: product.product_id, ...shown },
      };
    },

    /**
     * Write the review of a link's product through the submissions service (server/reviews/submissions.service.ts):
     * the shopper's address is the order's, the proof `{ source: "review-request", orderId }` makes it a
     * verified-buyer review, and moderation follows the store's setting. A link works once per product.
     * @throws ApiError 404 (unknown link), 410 (`link_used`, `link_expired`), and the submission's 400/413/429.
     */
    async submitReview(token: string, input: { fields: Record<string, unknown>; files: UploadedFile[]; clientIp: string }, nowMs = Date.now()): Promise<SubmitReviewResponse> {
      const found = await resolveReviewToken(token, nowMs);
      if (found.state === "invalid") throw notFound("This review link is not valid", "link_not_found");
      const { request, store, product, expired } = found;
      if (product.review_id !== null) throw new ApiError(410, "This link was already used to review this product", "link_used");
      if (expired) throw new ApiError(410, "This review link has expired", "link_expired");
      const claim = `claim:${randomUUID()}`;
      // Exactly-once per product: the conditional UPDATE (review_id IS NULL) lets one claim through.
      if (!(await repo.claimProduct(request.request_id, product.product_id, claim))) {
        throw new ApiError(410, "This link was already used to review this product", "link_used");
      }
      try {
        const displayName = typeof input.fields.displayName === "string" && input.fields.displayName.trim() ? input.fields.displayName : (request.customer_name ?? "");
        const result = await deps.submissions.submitReview(
          { storeId: store.storeId, productKey: `${store.platform}-${product.product_id}` },
          { fields: { ...input.fields, displayName, email: request.email }, files: input.files, clientIp: input.clientIp, verifiedPurchase: { source: "review-request", orderId: request.order_id } },
        );
        await transaction(db, async () => {
          await repo.completeProduct(request.request_id, product.product_id, claim, result.review.reviewId, Date.now());
          await repo.markOpened(request.request_id, nowMs);
        });
        return result;
      } catch (error) {
        await repo.releaseProduct(request.request_id, product.product_id, claim);
        throw error;
      }
    },

    /**
     * What the "rate the shop" step of a review link shows (docs/review-requests.md "Rate the shop"): any review link of
     * the request (before or after its product's review) while it works, when the store's `askShopRating` is on.
     */
    async shopRatingLink(token: string, nowMs = Date.now()): Promise<ShopRatingState> {
      const found = await resolveReviewToken(token, nowMs);
      if (found.state === "invalid") return found;
      const { request, store, expired } = found;
      if (!deps.storeReviews || !(await get(store.storeId)).askShopRating) return { state: "off" };
      if (await deps.storeReviews.ratedByRequest(store.storeId, request.request_id)) return { state: "rated", storeName: store.name };
      if (expired) return { state: "expired", storeName: store.name };
      return { state: "open", storeName: store.name, customerName: request.customer_name };
    },

    /**
     * Rate the shop from a review link: a store review (server/store-reviews) under the order's address, verified
     * (the link is the proof) and linked to the request and its order, so the merchant review feed marks it
     * `after_fulfillment`. The name defaults to the order's customer name. Once per review request: the store
     * reviews' unique request key makes a second submission, even a concurrent one, a 409.
     * @returns the store review's ID and moderation status.
     * @throws ApiError 404 (`link_not_found`: unknown link, or the store does not ask for shop ratings), 410
     * (`link_expired`), 409 (`already_rated`), and the store review's 400/429.
     */
    async rateShop(token: string, input: { fields: Record<string, unknown>; clientIp: string }, nowMs = Date.now()): Promise<{ review: { reviewId: string; status: ModerationStatus } }> {
      const found = await resolveReviewToken(token, nowMs);
      if (found.state === "invalid" || !deps.storeReviews || !(await get(found.store.storeId)).askShopRating) throw notFound("This review link is not valid", "link_not_found");
      const { request, store, expired } = found;
      if (expired) throw new ApiError(410, "This review link has expired", "link_expired");
      const name = input.fields.displayName;
      const displayName = typeof name === "string" && name.trim() ? name : (request.customer_name ?? "");
      return deps.storeReviews.submit(store.storeId, { ...input.fields, displayName, email: request.email }, input.clientIp, { requestId: request.request_id, orderId: request.order_id });
    },

    /** What the unsubscribe page of `token` shows (nothing changes). */
    async unsubscribeInfo(token: string): Promise<UnsubscribeState> {
      const row = TOKEN_PATTERN.test(token) ? await repo.token(hashToken(token)) : undefined;
      const request = row?.purpose === "unsubscribe" ? await repo.get(row.request_id) : undefined;
      const store = request && (await stores.get(request.store_id));
      if (!row || !request || !store || row.expires_ms <= Date.now()) return { state: "invalid" };
      return { state: "ok", storeName: store.name, maskedEmail: maskEmail(request.email), already: await repo.isUnsubscribed(request.store_id, request.email) };
    },

    /**
     * Unsubscribe the address of `token`'s request from the store's review requests (RFC 8058 one-click, or
     * the confirm page): no reminder and no further requests. Idempotent.
     */
    async unsubscribe(token: string, nowMs = Date.now()): Promise<UnsubscribeState> {
      const info = await this.unsubscribeInfo(token);
      if (info.state !== "ok") return info;
      const request = (await repo.get((await repo.token(hashToken(token)))!.request_id))!;
      await transaction(db, async () => {
        await repo.unsubscribe(request.store_id, request.email, nowMs);
        await repo.skipPendingFor(request.store_id, request.email, "unsubscribed");
      });
      return { ...info, already: true };
    },

    /** The funnel of the last `days` UTC days up to `nowMs`, one entry per day (zeros included), and its totals. */
    async funnel(storeId: string, days = 30, nowMs = Date.now()): Promise<{ days: FunnelDay[]; totals: Omit<FunnelDay, "day"> }> {
      const firstDay = Math.floor(nowMs / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
      const byDay = new Map((await repo.funnel(storeId, firstDay)).map((d) => [d.day, d]));
      const list: FunnelDay[] = [];
      for (let t = firstDay; t <= nowMs; t += DAY_MS) {
        const day = new Date(t).toISOString().slice(0, 10);
        list.push(byDay.get(day) ?? { day, sent: 0, opened: 0, reviewed: 0 });
      }
      const totals = list.reduce((s, d) => ({ sent: s.sent + d.sent, opened: s.opened + d.opened, reviewed: s.reviewed + d.reviewed }), { sent: 0, opened: 0, reviewed: 0 });
      return { days: list, totals };
    },

    /** Generate the demo store's request history from its demo orders (review-requests.demo.ts). @returns requests added. */
    generateDemoHistory(storeId: string, reviewSource: string): Promise<number> {
      return repo.generateDemoHistory(storeId, reviewSource);
    },

    /** How many of the store's requests are in each status (scheduled, sent, completed, cancelled, skipped). */
    statusCounts(storeId: string): Promise<Record<string, number>> {
      return repo.statusCounts(storeId);
    },

    /**
     * The e-mail as `settings` would render it, with sample values (customer "Alex", order "#1001", up to two
     * of the store's products or a sample one); links point at `${origin}/r/preview` and go nowhere.
     */
    async preview(storeId: string, settings: ReviewRequestSettings, origin: string, locale: string | null = null): Promise<ReviewRequestEmail> {
      const store = await stores.get(storeId);
      if (!store) throw notFound("Store not found", "store_not_found");
      const sample = await repo.sampleProducts(storeId, 2);
      const products = (sample.length ? sample : [{ name: "Sample product", image_url: null }]).map((p) => ({ name: p.name, imageUrl: p.image_url, reviewUrl: `${origin}/r/preview` }));
      return buildReviewRequestEmail({ settings, storeName: store.name, orderId: "#1001", customerName: "Alex", locale, step: "request", products, unsubscribeUrl: `${origin}/u/preview`, origin });
    },
  };
}
export type ReviewRequestsService = ReturnType<typeof reviewRequestsService>;
export type { RequestProductRow };

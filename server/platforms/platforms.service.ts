/**
 * The shop-platform connection (issue #22 items 1, 2, 4; docs/platforms.md): webhooks from Shopify and
 * from any platform that signs Chorus's own JSON, applied once each, in one transaction each:
 *
 * - Shopify (`POST /platforms/shopify/webhooks`): a delivery whose `X-Shopify-Hmac-Sha256` is missing, empty or
 *   not a base64 HMAC-SHA256 is 401 first (it cannot be verified); the store is found by `X-Shopify-Shop-Domain` (404 when no
 *   store is connected to that shop), the raw body's HMAC-SHA256 (base64) with the connection's app secret
 *   must equal `X-Shopify-Hmac-Sha256` (constant-time compare; 401 otherwise), `X-Shopify-Webhook-Id` makes
 *   it idempotent (a delivery seen before: 200 `duplicate`). The body is parsed only after the signature
 *   passed: a forged body is 401 whatever it holds; a signed but malformed one 400. Topics Chorus does not
 *   use: 200 `ignored` (Shopify retries, then removes, webhooks that keep failing).
 * - Signed webhooks (`POST /platforms/webhooks/{storeId}`): `X-Chorus-Signature: sha256=<hex>` over
 *   `<X-Chorus-Timestamp>.<raw body>`, the timestamp within 5 minutes of the server's clock (so a captured
 *   delivery cannot be replayed later under a new ID; a missing or malformed signature or timestamp is 401 too),
 *   `X-Chorus-Webhook-Id` for idempotency.
 *
 * An order webhook stores the order header and its lines, names unknown products from the lines, awards the
 * order's loyalty points (ledger.ts `earnForPlatformOrder`) and, on cancellation, reverses them. After the
 * transaction commits, a new fulfilment calls `reviewRequests.orderFulfilled` and a new cancellation
 * `reviewRequests.orderCancelled` (server/review-requests; the receiver is passed in by the route).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ApiError, badRequest, notFound } from "../contract/errors.ts";
import {
  SHOPIFY_TOPICS,
  shopifyFulfillment,
  shopifyRefund,
  shopifyOrder,
  shopifyProduct,
  shopifyProductDelete,
  signedWebhookBody,
  type ShopifyOrder,
  type ShopifyTopic,
  type SignedWebhookBody,
  type WebhookOutcome,
} from "../contract/platforms.ts";
import { isUniqueViolation, transaction, type Db } from "../db/database.ts";
import { SHOPIFY_PRIVACY_TOPICS, type ShopifyPrivacyTopic } from "../privacy/privacy.service.ts";
import { earnForPlatformOrder, reverseOrderEarning } from "../loyalty/ledger.ts";
import type { LoyaltyRepo } from "../loyalty/loyalty.repo.ts";
import { applyOrderRefund } from "../loyalty/lifecycle.ts";
import type { LifecycleRepo } from "../loyalty/lifecycle.repo.ts";
import type { Referrals } from "../loyalty/referrals.ts";
import { normaliseEmail, type OrdersRepo, type PlatformOrder } from "../orders/orders.repo.ts";
import { zodIssue } from "../shared/zod-issue.ts";
import type { CatalogueProduct, PlatformsRepo } from "./platforms.repo.ts";
import type { SecretBox } from "./secret-box.ts";
import type { FeedsRepo, ProductIdentifiers } from "../feeds/feeds.repo.ts";
import { isGtin } from "../feeds/feeds.service.ts";
import { WOOCOMMERCE_TOPICS, type WooCommerceTopic } from "../contract/woocommerce.ts";
import { normaliseSiteUrl, wooCommerceEvent } from "./woocommerce.ts";

/** Largest webhook body read, in bytes (a Shopify order with hundreds of lines is well below). */
export const WEBHOOK_MAX_BYTES = 1024 * 1024;
/** How far a signed webhook's timestamp may be from the server's clock, in ms. */
export const SIGNED_WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;

/** What the review-requests module receives (brief interface 2), called after the order's transaction commits. */
export type FulfilledOrder = {
  storeId: string;
  orderId: string;
  email: string;
  customerName: string | null;
  locale: string | null;
  lines: { productId: string }[];
  fulfilledMs: number;
};
export type ReviewRequestsReceiver = {
  orderFulfilled(order: FulfilledOrder): unknown; // may return a promise: it is awaited
  orderCancelled(storeId: string, orderId: string): unknown;
};

/** One event of a shop, whatever platform sent it. Product and order IDs are the platform's, without prefix. */
/** Acts on one of Shopify's privacy topics for a store (server/privacy: erasure, data request). @throws ApiError 400 for a malformed body. */
export type ShopifyPrivacyReceiver = (storeId: string, topic: ShopifyPrivacyTopic, body: unknown) => Promise<void> | void;

export type PlatformEvent =
  | { kind: "order"; order: PlatformOrder; fulfilledMs: number | null; cancelledMs: number | null; refunds?: { refundId: string; amount: number }[] }
  | { kind: "customer"; platformCustomerId: string; email: string | null }
  | { kind: "fulfilment"; orderId: string; fulfilledMs: number }
  | { kind: "refund"; refundId: string; orderId: string; amount: number }
  | { kind: "product"; product: CatalogueProduct; identifiers?: ProductIdentifiers[] }
  | { kind: "product-deleted"; productId: string };

/** The platform section of the store settings (GET/PATCH /enterprise/settings, the admin's platform page). */
export const platformSettingsPatch = z
  .object({
    shopDomain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^(?=.{4,255}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/, "shopDomain must be the shop's domain, e.g. example.myshopify.com")
      .nullable()
      .optional()
      .meta({ description: "Shopify: the shop's `*.myshopify.com` domain (the `X-Shopify-Shop-Domain` of its webhooks); null removes it." }),
    appSecret: z
      .string()
      .regex(/^[\x21-\x7e]{16,200}$/, "appSecret must be 16 to 200 printable characters without spaces")
      .nullable()
      .optional()
      .meta({ description: "Write-only: the secret that signs the shop's webhooks (Shopify: the app's client secret). Never returned; null removes it." }),
    adminApiToken: z
      .string()
      .regex(/^[\x21-\x7e]{16,200}$/, "adminApiToken must be 16 to 200 printable characters without spaces")
      .nullable()
      .optional()
      .meta({
        description:
          "Write-only: Shopify's Admin API access token of the shop's custom app (scope `write_discounts`), with which loyalty rewards are created as discount codes. Never returned; null removes it.",
      }),
    type: z
      .enum(["shopify", "woocommerce"])
      .optional()
      .meta({ description: "Which platform the other fields are for: `woocommerce` for `siteUrl`, `consumerKey`, `consumerSecret`, `webhookSecret`; `shopify` (the default) for the others." }),
    siteUrl: z.string().max(2000).nullable().optional().meta({
      description:
        "WooCommerce: the shop's address (`https://shop.example`, WordPress's `home_url`, the `X-WC-Webhook-Source` of its webhooks). One store per site (another store's: 409). Setting it removes a Shopify shop domain; null removes it.",
    }),
    consumerKey: z
      .string()
      .regex(/^ck_[A-Za-z0-9]{8,100}$/, "consumerKey must be WooCommerce's REST API consumer key (ck_…)")
      .nullable()
      .optional()
      .meta({ description: "Write-only: the consumer key of a WooCommerce REST API key with Read/Write permissions (creates reward coupons). Never returned; null removes it." }),
    consumerSecret: z
      .string()
      .regex(/^cs_[A-Za-z0-9]{8,100}$/, "consumerSecret must be WooCommerce's REST API consumer secret (cs_…)")
      .nullable()
      .optional()
      .meta({ description: "Write-only: the consumer secret of that REST API key. Never returned; null removes it." }),
    webhookSecret: z
      .string()
      .regex(/^(?=.*\S)[\x20-\x7e]{8,200}$/, "webhookSecret must be 8 to 200 printable characters")
      .nullable()
      .optional()
      .meta({ description: "Write-only: the Secret of the shop's WooCommerce webhooks (WooCommerce → Settings → Advanced → Webhooks), which signs each delivery. Never returned; null removes it." }),
  })
  .strict()
  .superRefine((p, ctx) => {
    const woo = ["siteUrl", "consumerKey", "consumerSecret", "webhookSecret"].filter((k) => p[k as keyof typeof p] !== undefined);
    const shopify = ["shopDomain", "appSecret", "adminApiToken"].filter((k) => p[k as keyof typeof p] !== undefined);
    if (p.type === "woocommerce" && shopify.length) ctx.addIssue({ code: "custom", path: [shopify[0]], message: `${shopify[0]} is a Shopify field: leave it out with type "woocommerce"` });
    if (p.type !== "woocommerce" && woo.length) ctx.addIssue({ code: "custom", path: ["type"], message: `type must be "woocommerce" with ${woo[0]}` });
  });
/** The WooCommerce part of the platform settings: only what is set, never a secret. */
export const wooSettingsSchema = z
  .object({
    siteUrl: z.string().nullable().meta({ description: "The shop's address, or null." }),
    consumerKeySet: z.boolean(),
    consumerSecretSet: z.boolean(),
    webhookSecretSet: z.boolean(),
    updatedAt: z.string().nullable().meta({ description: "When the WooCommerce connection was last changed (ISO 8601), or null." }),
  })
  .meta({ id: "WooCommerceSettings" });
export const platformSettingsSchema = z
  .object({
    platform: z.string().meta({ description: "The store's platform word (the product ID prefix), e.g. `shopify`." }),
    shopDomain: z.string().nullable(),
    appSecretSet: z.boolean().meta({ description: "Whether an app secret is set (the secret itself is never shown)." }),
    appSecretSetAt: z.string().nullable().meta({ description: "When the app secret was last set (ISO 8601), or null." }),
    adminApiTokenSet: z.boolean().meta({ description: "Whether a Shopify Admin API access token is set (the token itself is never shown)." }),
    adminApiTokenSetAt: z.string().nullable().meta({ description: "When the Admin API access token was last set (ISO 8601), or null." }),
    webhookUrls: z.object({
      shopify: z.string().meta({ description: "Paste into Shopify (Settings → Notifications → Webhooks, or the app's webhook subscriptions)." }),
      signed: z.string().meta({ description: "For other platforms: Chorus's signed-webhook JSON." }),
      woocommerce: z.string().meta({ description: "Delivery URL of the shop's WooCommerce webhooks (one for every store; `X-WC-Webhook-Source` finds the store)." }),
    }),
    woocommerce: wooSettingsSchema,
  })
  .meta({ id: "PlatformSettings" });
export type PlatformSettingsPatch = z.output<typeof platformSettingsPatch>;
export type PlatformSettings = z.output<typeof platformSettingsSchema>;

/** A base64 HMAC-SHA256 as Shopify sends it: 32 bytes, 44 characters with one `=` of padding. */
const SHOPIFY_HMAC = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;
const unauthorized = (why: string) => new ApiError(401, `The webhook's signature is not valid: ${why}`, "invalid_webhook_signature");

/** HMAC-SHA256 of `data` with `secret`. */
const hmac = (secret: string, ...data: (string | Buffer)[]) => {
  const h = createHmac("sha256", secret);
  for (const d of data) h.update(d);
  return h.digest();
};

/** Constant-time comparison of a received digest with the expected one (false for another length). */
function sameDigest(expected: Buffer, received: Buffer): boolean {
  return received.length === expected.length && timingSafeEqual(expected, received);
}

/** Parse a raw body as JSON and with `schema`. @throws ApiError 400 naming the field. */
function parseBody<S extends z.ZodType>(raw: Buffer, schema: S): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch {
    throw badRequest("The webhook body is not valid JSON", "invalid_body");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw badRequest(zodIssue(parsed.error, "body"), "invalid_field");
  return parsed.data;
}

const fullName = (first?: string | null, last?: string | null) =>
  [first, last]
    .filter((s) => s && s.trim())
    .join(" ")
    .trim() || null;

/** A Shopify Order as a platform order. */
export function fromShopifyOrder(o: ShopifyOrder): PlatformOrder {
  const lines = new Map<string, PlatformOrder["lines"][number]>();
  for (const l of o.line_items) {
    if (!l.product_id) continue; // custom items, tips, gift cards without a product
    const known = lines.get(l.product_id);
    if (known)
      known.quantity += l.quantity; // one line per product (variants of one product merge)
    else lines.set(l.product_id, { productId: l.product_id, variantId: l.variant_id ?? null, title: l.title ?? null, price: l.price ?? null, quantity: l.quantity });
  }
  return {
    orderId: o.id,
    orderName: o.name ?? null,
    email: normaliseEmail(o.email ?? o.contact_email ?? o.customer?.email ?? ""),
    platformCustomerId: o.customer?.id ?? null,
    customerName: fullName(o.customer?.first_name, o.customer?.last_name),
    locale: o.customer_locale ?? null,
    currency: o.currency ?? null,
    subtotal: o.subtotal_price ?? o.total_price ?? null,
    orderedMs: o.created_at,
    source: "shopify-webhook",
    lines: [...lines.values()],
    discountCodes: (o.discount_codes ?? []).map((d) => d.code),
  };
}

/** The event of a Shopify delivery of `topic` (body already verified). @throws ApiError 400 for a malformed body. */
export function shopifyEvent(topic: ShopifyTopic, raw: Buffer, shopDomain: string, nowMs: number): PlatformEvent {
  switch (topic) {
    case "orders/create":
    case "orders/fulfilled":
    case "orders/cancelled": {
      const o = parseBody(raw, shopifyOrder);
      const lastFulfilment = Math.max(0, ...(o.fulfillments ?? []).map((f) => f.created_at ?? 0));
      const fulfilled = topic === "orders/fulfilled" || o.fulfillment_status === "fulfilled";
      const cancelledMs = o.cancelled_at ?? (topic === "orders/cancelled" ? nowMs : null);
      return { kind: "order", order: fromShopifyOrder(o), fulfilledMs: fulfilled ? lastFulfilment || nowMs : null, cancelledMs };
    }
    case "fulfillments/create": {
      const f = parseBody(raw, shopifyFulfillment);
      return { kind: "fulfilment", orderId: f.order_id, fulfilledMs: f.created_at ?? nowMs };
    }
    case "products/create":
    case "products/update": {
      const p = parseBody(raw, shopifyProduct);
      const imageUrl = p.image?.src ?? p.images?.[0]?.src ?? null;
      // Identifiers for Google Shopping (docs/google-shopping.md): the vendor is the brand (product row, variant ''),
      // each variant's barcode is its GTIN when it is one (other barcodes are shop-internal codes) and its SKU.
      const brand = p.vendor?.trim() || null;
      const identifiers: ProductIdentifiers[] = [
        ...(brand ? [{ productId: p.id, variantId: "", brand }] : []),
        ...(p.variants ?? [])
          .map((v) => ({ productId: p.id, variantId: v.id, gtin: v.barcode && isGtin(v.barcode.trim()) ? v.barcode.trim() : undefined, sku: v.sku?.trim() || undefined }))
          .filter((v) => v.gtin || v.sku),
      ];
      return {
        kind: "product",
        product: {
          productId: p.id,
          name: p.title,
          url: p.handle ? `https://${shopDomain}/products/${encodeURIComponent(p.handle)}` : null,
          imageUrl: imageUrl && /^https:/i.test(imageUrl) ? imageUrl : null,
        },
        identifiers,
      };
    }
    case "products/delete":
      return { kind: "product-deleted", productId: parseBody(raw, shopifyProductDelete).id };
    case "refunds/create": {
      const r = parseBody(raw, shopifyRefund);
      const lines = (r.refund_line_items ?? []).reduce((sum, l) => sum + (l.subtotal ?? 0), 0);
      const paid = (r.transactions ?? []).filter((t) => !t.kind || t.kind === "refund").reduce((sum, t) => sum + (t.amount ?? 0), 0);
      return { kind: "refund", refundId: r.id, orderId: r.order_id, amount: Math.max(0, lines > 0 ? lines : paid) };
    }
  }
}

/** The event of a signed-webhook body. */
export function signedEvent(body: SignedWebhookBody, nowMs: number): PlatformEvent {
  switch (body.type) {
    case "product.upserted":
      return { kind: "product", product: { productId: body.product.productId, name: body.product.name, url: body.product.url ?? null, imageUrl: body.product.imageUrl ?? null } };
    case "product.deleted":
      return { kind: "product-deleted", productId: body.product.productId };
    default: {
      const o = body.order;
      const lines = new Map<string, PlatformOrder["lines"][number]>();
      for (const l of o.lines) {
        const known = lines.get(l.productId);
        if (known) known.quantity += l.quantity ?? 1;
        else lines.set(l.productId, { productId: l.productId, variantId: l.variantId ?? null, title: l.title ?? null, price: l.price ?? null, quantity: l.quantity ?? 1 });
      }
      const order: PlatformOrder = {
        orderId: o.orderId,
        orderName: o.name ?? null,
        email: normaliseEmail(o.email ?? ""),
        platformCustomerId: o.customerId ?? null,
        customerName: o.customerName ?? null,
        locale: o.locale ?? null,
        currency: o.currency ?? null,
        subtotal: o.subtotal ?? null,
        orderedMs: Date.parse(o.dateCreated),
        source: "signed-webhook",
        lines: [...lines.values()],
        discountCodes: o.discountCodes ?? [],
      };
      const fulfilledMs = body.type === "order.fulfilled" ? (body.dateFulfilled ? Date.parse(body.dateFulfilled) : nowMs) : null;
      const cancelledMs = body.type === "order.cancelled" ? (body.dateCancelled ? Date.parse(body.dateCancelled) : nowMs) : null;
      return { kind: "order", order, fulfilledMs, cancelledMs };
    }
  }
}

/** A form body of WooCommerce's creation ping (`webhook_id=N`, sent unsigned and without a topic). */
const WOO_PING = /^webhook_id=\d{1,20}$/;

/**
 * Create the platform service. `now` is the clock (ms) of webhook times and the signed-webhook window;
 * `allowLoopback` (ALLOW_LOOPBACK_REQUESTS=1) lets a WooCommerce site be a loopback address.
 */
export function platformsService(deps: {
  db: Db;
  repo: PlatformsRepo;
  allowLoopback?: boolean;
  orders: OrdersRepo;
  loyalty: LoyaltyRepo;
  lifecycle: LifecycleRepo;
  box: SecretBox;
  identifiers?: FeedsRepo;
  storePlatform: (storeId: string) => Promise<string | undefined> | string | undefined;
  now?: () => number;
  log?: (message: string, error: unknown) => void;
  /** Referral rewards of friends' orders (server/loyalty/referrals.ts), called inside the webhook's transaction. */
  referrals?: Pick<Referrals, "orderChanged" | "orderReversed">;
}) {
  const { db, repo, orders, loyalty, box } = deps;
  const now = deps.now ?? Date.now;

  /** The connection's app secret in clear, or undefined when none is set. */
  const secretOf = (sealed: string | null): string | undefined => {
    if (!sealed) return undefined;
    try {
      return box.open(sealed);
    } catch {
      return undefined; // sealed under another installation key: as if unset (the merchant sets it again)
    }
  };

  /**
   * Apply one verified event in one transaction (recording the delivery), then tell the review-requests
   * module what changed. @returns the outcome.
   */
  async function apply(
    storeId: string,
    webhookId: string,
    topic: string,
    event: PlatformEvent,
    receiver: ReviewRequestsReceiver | undefined,
    claim?: () => Promise<WebhookOutcome | null>,
  ): Promise<WebhookOutcome> {
    const t = now();
    let after: ((r: ReviewRequestsReceiver) => unknown)[] = [];
    let afterReferrals: (() => Promise<unknown>)[] = [];
    const outcome = await transaction(db, async (): Promise<WebhookOutcome> => {
      after = []; // a retried transaction starts over
      afterReferrals = [];
      // Exactly-once per delivery: the delivery is recorded first (unique (store, webhook) key, ON CONFLICT DO NOTHING);
      // a concurrent copy waits here for the first one's commit and then finds it recorded.
      if (claim) {
        const refused = await claim();
        if (refused) return refused;
      } else if (!(await repo.record(storeId, webhookId, topic, "applied", t))) return "duplicate";
      let applied = true;
      switch (event.kind) {
        case "product":
          await repo.upsertProduct(storeId, event.product);
          // Shopify's identifiers replace what Shopify said before; a merchant's CSV rows stay (feeds.repo.ts).
          // WooCommerce's identifiers count as a platform webhook's (`signed-webhook`): a store has one platform.
          if (event.identifiers && deps.identifiers)
            await deps.identifiers.replaceIdentifiers(storeId, event.product.productId, topic.startsWith("products/") ? "shopify" : "signed-webhook", event.identifiers, t);
          break;
        case "product-deleted":
          await repo.unlistProduct(storeId, event.productId);
          break;
        case "refund": {
          // Points back in proportion (once per refund ID: loyalty_refunds); an order not known here earned nothing.
          const h = await orders.getOrder(storeId, event.orderId);
          if (h && event.amount > 0) {
            await applyOrderRefund(loyalty, deps.lifecycle, {
              storeId,
              refundId: event.refundId,
              orderId: event.orderId,
              amount: event.amount,
              orderAmount: h.subtotal,
              label: h.order_name ?? event.orderId,
              nowMs: t,
            });
            await deps.referrals?.orderReversed(storeId, event.orderId, h.order_name ?? event.orderId); // a refunded friend's order rewards nobody
          } else applied = false;
          break;
        }
        case "fulfilment":
          if (await orders.getOrder(storeId, event.orderId)) after.push(...(await orderChanged(storeId, event.orderId, event.fulfilledMs, null, t)));
          else applied = false; // the order itself has not arrived: its orders/fulfilled delivery will carry it
          break;
        case "order": {
          for (const l of event.order.lines) await repo.ensureProduct(storeId, l.productId, l.title?.trim() || `Product ${l.productId}`);
          await orders.upsertOrder(storeId, event.order, t);
          after.push(...(await orderChanged(storeId, event.order.orderId, event.fulfilledMs, event.cancelledMs, t)));
          // Refunds named by the order (WooCommerce): points back in proportion, once per refund ID (loyalty_refunds).
          if (event.refunds?.length) {
            const h = (await orders.getOrder(storeId, event.order.orderId))!;
            for (const r of event.refunds) {
              await applyOrderRefund(loyalty, deps.lifecycle, {
                storeId,
                refundId: r.refundId,
                orderId: h.order_id,
                amount: r.amount,
                orderAmount: h.subtotal,
                label: h.order_name ?? h.order_id,
                nowMs: t,
              });
            }
          }
          if (deps.referrals) {
            const h = (await orders.getOrder(storeId, event.order.orderId))!;
            afterReferrals.push(
              ...(await deps.referrals.orderChanged(storeId, {
                orderId: h.order_id,
                label: h.order_name ?? h.order_id,
                email: h.email,
                platformCustomerId: h.platform_customer_id,
                discountCodes: event.order.discountCodes ?? [],
                cancelled: h.status === "cancelled",
                orderedMs: h.ordered_ms,
              })),
            );
            // A refund of the friend's order (WooCommerce names it in the order) rewards nobody, as Shopify's refunds/create.
            if (event.refunds?.length) await deps.referrals.orderReversed(storeId, h.order_id, h.order_name ?? h.order_id);
          }
          break;
        }
        case "customer": {
          // A shop customer's e-mail reaches their loyalty account (when they have one); else nothing to do.
          const c = await loyalty.getCustomerByPlatformId(storeId, event.platformCustomerId);
          if (c && event.email && c.email !== event.email) await loyalty.updateEmail(storeId, c.loyalty_customer_id, event.email);
          else applied = false;
          break;
        }
      }
      if (!applied) await repo.setOutcome(storeId, webhookId, "ignored");
      return applied ? "applied" : "ignored";
    });
    for (const call of afterReferrals) {
      try {
        await call(); // a referral coupon on the platform: network, after the commit (its job retries a failure)
      } catch (error) {
        deps.log?.("referrals: the sender's coupon was not created", error);
      }
    }
    if (receiver) {
      for (const call of after) {
        try {
          await call(receiver);
        } catch (error) {
          deps.log?.("review requests: the order event was not taken", error); // committed; the receiver's own failure
        }
      }
    }
    return outcome;

    /** Status changes and points of an order (inside the transaction); @returns the calls to make after commit. */
    async function orderChanged(storeId: string, orderId: string, fulfilledMs: number | null, cancelledMs: number | null, nowMs: number) {
      const calls: ((r: ReviewRequestsReceiver) => unknown)[] = [];
      // The status changes are conditional updates (`status = 'ordered'`, `status <> 'cancelled'`): exactly one delivery makes each.
      if (cancelledMs !== null && (await orders.markCancelled(storeId, orderId, cancelledMs, nowMs))) {
        calls.push((r) => r.orderCancelled(storeId, orderId));
      } else if (fulfilledMs !== null && (await orders.markFulfilled(storeId, orderId, fulfilledMs, nowMs))) {
        const h = (await orders.getOrder(storeId, orderId))!;
        const lines = (await orders.lines(storeId, orderId)).map((l) => ({ productId: l.product_id }));
        if (h.email) {
          calls.push((r) => r.orderFulfilled({ storeId, orderId, email: h.email, customerName: h.customer_name, locale: h.locale, lines, fulfilledMs }));
        }
      }
      const h = (await orders.getOrder(storeId, orderId))!;
      const label = h.order_name ?? orderId;
      if (h.status === "cancelled") await reverseOrderEarning(loyalty, storeId, { orderId, label }, deps.lifecycle);
      else if (h.platform_customer_id && h.subtotal !== null) {
        await earnForPlatformOrder(loyalty, storeId, { orderId, platformCustomerId: h.platform_customer_id, amount: h.subtotal, label }, deps.lifecycle);
      }
      return calls;
    }
  }

  /** The WooCommerce fields of a (parsed) platform patch. @throws ApiError 400 site address, 409 the site belongs to another store. */
  async function updateWoo(storeId: string, parsed: PlatformSettingsPatch): Promise<void> {
    let siteUrl = parsed.siteUrl;
    if (siteUrl) {
      const normalised = normaliseSiteUrl(siteUrl, deps.allowLoopback === true);
      if (!normalised)
        throw badRequest("siteUrl must be the shop's https:// address, without credentials, query or fragment (a loopback address only with ALLOW_LOOPBACK_REQUESTS=1)", "invalid_field");
      siteUrl = normalised;
    }
    const seal = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : box.seal(v));
    const taken = () => new ApiError(409, "siteUrl: this WooCommerce site is connected to another store", "site_taken");
    // The check and the write in one transaction; another node connecting the site in between is caught by the unique
    // site address (a unique violation, answered 409 the same way).
    try {
      await transaction(db, async () => {
        if (siteUrl) {
          const other = await repo.connectionOfSite(siteUrl);
          if (other && other.store_id !== storeId) throw taken();
        }
        await repo.saveWooConnection(
          storeId,
          {
            siteUrl,
            consumerKeyEncrypted: seal(parsed.consumerKey),
            consumerSecretEncrypted: seal(parsed.consumerSecret),
            webhookSecretEncrypted: seal(parsed.webhookSecret),
          },
          now(),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  return {
    /**
     * A Shopify webhook delivery (headers already present and bounded, body read raw up to WEBHOOK_MAX_BYTES).
     * @returns the outcome. @throws ApiError 401 HMAC header missing, empty or not a base64 HMAC-SHA256 (before
     * anything else), 404 no store connected to the shop (or none with a secret), 401 bad signature, 400 malformed body (signed).
     */
    async receiveShopify(
      h: { topic: string; hmac: string; shopDomain: string; webhookId: string },
      raw: Buffer,
      receiver?: ReviewRequestsReceiver,
      privacy?: ShopifyPrivacyReceiver,
    ): Promise<WebhookOutcome> {
      // A delivery that cannot be verified is 401 whatever else it says (Shopify's convention), before the shop is looked up.
      if (!SHOPIFY_HMAC.test(h.hmac.trim())) throw unauthorized("X-Shopify-Hmac-Sha256 must be the base64 HMAC-SHA256 of the body (44 characters)");
      const shop = h.shopDomain.trim().toLowerCase();
      const connection = await repo.connectionOfShop(shop);
      const secret = connection && secretOf(connection.secret_encrypted);
      if (!connection || !secret) throw notFound("No store is connected to this shop", "shop_not_connected");
      if (!sameDigest(hmac(secret, raw), Buffer.from(h.hmac.trim(), "base64"))) throw unauthorized("X-Shopify-Hmac-Sha256 does not match the body");
      const storeId = connection.store_id;
      if (await repo.seen(storeId, h.webhookId)) return "duplicate";
      if (privacy && (SHOPIFY_PRIVACY_TOPICS as readonly string[]).includes(h.topic)) {
        // Shopify's mandatory privacy topics: the shopper data service acts (its own transactions), then the delivery is recorded.
        await privacy(storeId, h.topic as ShopifyPrivacyTopic, parseBody(raw, z.record(z.string(), z.unknown())));
        await transaction(db, () => repo.record(storeId, h.webhookId, h.topic, "applied", now()));
        return "applied";
      }
      if (!(SHOPIFY_TOPICS as readonly string[]).includes(h.topic)) {
        await transaction(db, () => repo.record(storeId, h.webhookId, h.topic, "ignored", now()));
        return "ignored";
      }
      const event = shopifyEvent(h.topic as ShopifyTopic, raw, shop, now());
      return apply(storeId, h.webhookId, h.topic, event, receiver);
    },

    /**
     * A signed-webhook delivery to `storeId`. @returns the outcome. @throws ApiError 404 unknown store or
     * no secret set, 401 signature or timestamp missing, malformed, not matching or over 5 minutes away,
     * 400 malformed body (signed).
     */
    async receiveSigned(storeId: string, h: { signature: string; webhookId: string; timestamp: string }, raw: Buffer, receiver?: ReviewRequestsReceiver): Promise<WebhookOutcome> {
      const secret = secretOf((await repo.connection(storeId))?.secret_encrypted ?? null);
      if (!secret) throw notFound("No store with this ID accepts signed webhooks (no app secret is set)", "store_not_connected");
      const match = /^sha256=([0-9a-f]{64})$/i.exec(h.signature.trim());
      if (!match) throw unauthorized("X-Chorus-Signature must be sha256=<64 hex digits>");
      if (!/^\d{1,12}$/.test(h.timestamp)) throw unauthorized("X-Chorus-Timestamp must be Unix seconds");
      if (!sameDigest(hmac(secret, h.timestamp, ".", raw), Buffer.from(match[1], "hex"))) throw unauthorized("X-Chorus-Signature does not match the timestamp and body");
      if (Math.abs(now() - Number(h.timestamp) * 1000) > SIGNED_WEBHOOK_TOLERANCE_MS) throw unauthorized("X-Chorus-Timestamp is more than 5 minutes from the server's time");
      if (await repo.seen(storeId, h.webhookId)) return "duplicate";
      const body = parseBody(raw, signedWebhookBody);
      return apply(storeId, h.webhookId, body.type, signedEvent(body, now()), receiver);
    },

    /**
     * A WooCommerce webhook delivery (headers bounded, body read raw up to WEBHOOK_MAX_BYTES; docs/platforms.md "WooCommerce").
     * Order of the checks: the creation ping (no topic, body `webhook_id=N`: 200 `ignored`, nothing stored), headers
     * (400), `X-WC-Webhook-Signature` present and a base64 HMAC-SHA256 (401), a store connected to
     * `X-WC-Webhook-Source` with a webhook secret (404), the HMAC of the raw body matches (constant-time; 401), the
     * delivery ID seen before (200 `duplicate`), the same signed body seen before under another delivery ID (401:
     * a replay, since WooCommerce does not sign the delivery ID), the body (400), then the event in one transaction.
     */
    async receiveWooCommerce(h: { topic?: string; signature?: string; source?: string; deliveryId?: string }, raw: Buffer, receiver?: ReviewRequestsReceiver): Promise<WebhookOutcome> {
      if (!h.topic?.trim()) {
        if (WOO_PING.test(raw.toString("utf8").trim())) return "ignored";
        throw badRequest("X-WC-Webhook-Topic is missing", "missing_header");
      }
      if (!h.source?.trim()) throw badRequest("X-WC-Webhook-Source is missing", "missing_header");
      if (!h.deliveryId?.trim()) throw badRequest("X-WC-Webhook-Delivery-ID is missing", "missing_header");
      const signature = (h.signature ?? "").trim();
      if (!SHOPIFY_HMAC.test(signature)) throw unauthorized("X-WC-Webhook-Signature must be the base64 HMAC-SHA256 of the body (44 characters)");
      const site = normaliseSiteUrl(h.source, true);
      const connection = site ? await repo.connectionOfSite(site) : undefined;
      const secret = connection && secretOf(connection.woo_webhook_secret_encrypted);
      if (!connection || !secret) throw notFound("No store is connected to this WooCommerce site (or none has a webhook secret)", "site_not_connected");
      const digest = hmac(secret, raw);
      if (!sameDigest(digest, Buffer.from(signature, "base64"))) throw unauthorized("X-WC-Webhook-Signature does not match the body");
      const storeId = connection.store_id;
      const webhookId = `woocommerce:${h.deliveryId.trim()}`;
      const digestText = digest.toString("base64");
      const replayed = () => unauthorized("this signed body was delivered before under another X-WC-Webhook-Delivery-ID (a replay)");
      if (await repo.seen(storeId, webhookId)) return "duplicate";
      if (await repo.digestSeen(storeId, digestText)) throw replayed();
      const topic = h.topic.trim();
      if (!(WOOCOMMERCE_TOPICS as readonly string[]).includes(topic)) {
        await transaction(db, () => repo.record(storeId, webhookId, topic, "ignored", now()));
        return "ignored";
      }
      const event = wooCommerceEvent(topic as WooCommerceTopic, raw, now());
      // Exactly-once: the delivery ID and the body digest are unique keys of the delivery's row (ON CONFLICT DO NOTHING);
      // a concurrent copy waits for the first one's commit, then is a duplicate (same ID) or a replay (same body).
      return apply(storeId, webhookId, topic, event, receiver, async () => {
        if (await repo.recordWithDigest(storeId, webhookId, digestText, topic, now())) return null;
        if (await repo.seen(storeId, webhookId)) return "duplicate";
        throw replayed();
      });
    },

    /** Apply an event without a delivery (demo data, tests of other modules): same rules, delivery ID `webhookId`. */
    applyEvent(storeId: string, webhookId: string, event: PlatformEvent, receiver?: ReviewRequestsReceiver): Promise<WebhookOutcome> {
      return apply(storeId, webhookId, "internal", event, receiver);
    },

    /** The platform section of the settings; `origin` is the public origin of the webhook URLs. */
    async settings(storeId: string, origin: string): Promise<PlatformSettings> {
      const c = await repo.connection(storeId);
      return {
        platform: (await deps.storePlatform(storeId)) ?? "",
        shopDomain: c?.shop_domain ?? null,
        appSecretSet: !!c?.secret_encrypted,
        appSecretSetAt: c?.secret_set_ms ? new Date(c.secret_set_ms).toISOString() : null,
        adminApiTokenSet: !!c?.admin_token_encrypted,
        adminApiTokenSetAt: c?.admin_token_set_ms ? new Date(c.admin_token_set_ms).toISOString() : null,
        webhookUrls: { shopify: `${origin}/platforms/shopify/webhooks`, signed: `${origin}/platforms/webhooks/${storeId}`, woocommerce: `${origin}/platforms/woocommerce/webhooks` },
        woocommerce: {
          siteUrl: c?.woo_site_url ?? null,
          consumerKeySet: !!c?.woo_consumer_key_encrypted,
          consumerSecretSet: !!c?.woo_consumer_secret_encrypted,
          webhookSecretSet: !!c?.woo_webhook_secret_encrypted,
          updatedAt: c?.woo_set_ms ? new Date(c.woo_set_ms).toISOString() : null,
        },
      };
    },

    /**
     * Change the platform section (fields left out are kept). @throws ApiError 400 (zod), 404 unknown store,
     * 409 the shop domain belongs to another store.
     */
    async updateSettings(storeId: string, patch: PlatformSettingsPatch): Promise<void> {
      if (!(await deps.storePlatform(storeId))) throw notFound("Store not found", "store_not_found");
      const parsed = platformSettingsPatch.parse(patch);
      if (parsed.type === "woocommerce") return updateWoo(storeId, parsed);
      const secretEncrypted = parsed.appSecret === undefined ? undefined : parsed.appSecret === null ? null : box.seal(parsed.appSecret);
      const adminTokenEncrypted = parsed.adminApiToken === undefined ? undefined : parsed.adminApiToken === null ? null : box.seal(parsed.adminApiToken);
      // The check and the write in one transaction; another node connecting the shop in between is caught by the
      // unique shop domain (the write fails with a unique violation: answered 409 the same way).
      try {
        await transaction(db, async () => {
          if (parsed.shopDomain) {
            const other = await repo.connectionOfShop(parsed.shopDomain);
            if (other && other.store_id !== storeId) throw new ApiError(409, "shopDomain: this shop is connected to another store", "shop_domain_taken");
          }
          await repo.saveConnection(storeId, { shopDomain: parsed.shopDomain, secretEncrypted, adminTokenEncrypted }, now());
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError(409, "shopDomain: this shop is connected to another store", "shop_domain_taken");
        throw error;
      }
    },
  };
}
export type PlatformsService = ReturnType<typeof platformsService>;

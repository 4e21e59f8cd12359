/**
 * WooCommerce as a shop platform (issue #38 item 2; docs/platforms.md "WooCommerce"):
 *
 * - `normaliseSiteUrl`: the shop's address as stored and matched against `X-WC-Webhook-Source`;
 * - `wooCommerceEvent`: a verified webhook body of a topic as a platform event (orders, products, customers);
 * - `createWooCoupon` / `findWooCoupon`: a loyalty or survey reward as a WooCommerce coupon through the REST API
 *   (`POST {siteUrl}/wp-json/wc/v3/coupons`, Basic auth with the REST key), and the reconciler's question by code.
 *
 * Every request goes through the outgoing-request guard (server/shared/outgoing-request.ts); a loopback site is
 * reachable only with ALLOW_LOOPBACK_REQUESTS=1 (tests' stand-ins).
 */
import { badRequest } from "../contract/errors.ts";
import { wooCustomer, wooOrder, wooProduct, type WooCommerceTopic, type WooOrder, type WooProduct } from "../contract/woocommerce.ts";
import type { ProductIdentifiers } from "../feeds/feeds.repo.ts";
import { isGtin } from "../feeds/feeds.service.ts";
import { normaliseEmail, type PlatformOrder } from "../orders/orders.repo.ts";
import { guardedFetch, hostOf, isLoopbackAddress, isLoopbackName, isOutgoingRequestError, type Resolve } from "../shared/outgoing-request.ts";
import { zodIssue } from "../shared/zod-issue.ts";
import type { DiscountOutcome, RewardDiscount } from "./shopify-discounts.ts";
import type { z } from "zod";

/** Longest time of one WooCommerce REST call (ms): a shopper waits for it. */
export const WOO_CALL_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 256 * 1024;

/**
 * The shop's address as Chorus keeps it: scheme, lower-case host, port and path without a trailing slash
 * (`https://shop.example`, `https://example.com/shop`). `https:` only; a loopback host (http or https) only when
 * `allowLoopback` (ALLOW_LOOPBACK_REQUESTS=1). @returns null when `raw` is not such an address.
 */
export function normaliseSiteUrl(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.username || url.password || url.search || url.hash) return null;
  const host = hostOf(url);
  const loopback = isLoopbackName(host) || isLoopbackAddress(host);
  if (loopback ? !allowLoopback || !/^https?:$/.test(url.protocol) : url.protocol !== "https:") return null;
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
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
const metaText = (meta: WooProduct["meta_data"], keys: string[]): string | undefined => {
  for (const k of keys) {
    const v = meta?.find((m) => m.key === k)?.value;
    if (typeof v === "string" && v.trim()) return v.trim();
  }
  return undefined;
};

/**
 * A WooCommerce order as a platform order: subtotal = the lines' `total` (after discounts, before tax and shipping);
 * discount codes = the `coupon_lines[].code` (a friend's referral code rewards its sender: docs/loyalty.md "Referrals").
 */
export function fromWooOrder(o: WooOrder): PlatformOrder {
  const lines = new Map<string, PlatformOrder["lines"][number]>();
  let subtotal = 0;
  for (const l of o.line_items) {
    subtotal += l.total ?? l.subtotal ?? 0;
    if (!l.product_id || l.product_id === "0") continue; // a line of a deleted product
    const known = lines.get(l.product_id);
    if (known) known.quantity += l.quantity;
    else
      lines.set(l.product_id, {
        productId: l.product_id,
        variantId: l.variation_id && l.variation_id !== "0" ? l.variation_id : null,
        title: l.name ?? null,
        price: l.price ?? null,
        quantity: l.quantity,
      });
  }
  return {
    orderId: o.id,
    orderName: o.number ? `#${o.number}` : null,
    email: normaliseEmail(o.billing?.email ?? ""),
    platformCustomerId: o.customer_id && o.customer_id !== "0" ? o.customer_id : null, // 0: a guest order
    customerName: fullName(o.billing?.first_name, o.billing?.last_name),
    locale: null,
    currency: o.currency ?? null,
    subtotal: Math.round(subtotal * 100) / 100,
    orderedMs: o.date_created_gmt,
    source: "woocommerce-webhook",
    discountCodes: (o.coupon_lines ?? []).map((c) => c.code.trim()).filter(Boolean),
    lines: [...lines.values()],
  };
}

/** What a WooCommerce delivery means (the platform service applies it). */
export type WooEvent =
  | { kind: "order"; order: PlatformOrder; fulfilledMs: number | null; cancelledMs: number | null; refunds: { refundId: string; amount: number }[] }
  | { kind: "product"; product: { productId: string; name: string; url: string | null; imageUrl: string | null }; identifiers: ProductIdentifiers[] }
  | { kind: "customer"; platformCustomerId: string; email: string | null };

/**
 * The event of a verified WooCommerce delivery of `topic`:
 * - orders: `completed` = fulfilled (at `date_completed_gmt`, else now); `cancelled` = cancelled (points taken back,
 *   review request cancelled); each of `refunds[]` takes points back in proportion (once per refund ID), and
 *   `refunded` takes back what those did not cover; a cancellation or any refund reverses the referral reward of a
 *   friend's order (as Shopify's `orders/cancelled` and `refunds/create`);
 * - products: name, `permalink`, the first image (HTTPS only), identifiers for Google Shopping: `sku`, the GTIN from
 *   `global_unique_id` (else the meta `_global_unique_id`, `_gtin`, `gtin`) when it is one, the brand from `brands[]`
 *   (else the meta `_brand`, `brand`), the MPN from the meta `_mpn`/`mpn`;
 * - customers: the platform customer ID and e-mail.
 * @throws ApiError 400 for a malformed body.
 */
export function wooCommerceEvent(topic: WooCommerceTopic, raw: Buffer, nowMs: number): WooEvent {
  switch (topic) {
    case "order.created":
    case "order.updated": {
      const o = parseBody(raw, wooOrder);
      const order = fromWooOrder(o);
      const refunds = (o.refunds ?? []).map((r) => ({ refundId: `wc-refund-${r.id}`, amount: Math.abs(r.total ?? 0) })).filter((r) => r.amount > 0);
      if (o.status === "refunded") {
        const covered = refunds.reduce((s, r) => s + r.amount, 0);
        const rest = (order.subtotal ?? 0) - covered;
        if (rest > 0) refunds.push({ refundId: `wc-order-${o.id}-refunded`, amount: rest });
      }
      return {
        kind: "order",
        order,
        refunds,
        fulfilledMs: o.status === "completed" ? (o.date_completed_gmt ?? nowMs) : null,
        cancelledMs: o.status === "cancelled" ? (o.date_modified_gmt ?? nowMs) : null,
      };
    }
    case "product.created":
    case "product.updated": {
      const p = parseBody(raw, wooProduct);
      const image = p.images?.find((i) => /^https:/i.test(i.src))?.src ?? null;
      const url = p.permalink && /^https?:/i.test(p.permalink) ? p.permalink : null;
      const gtinText = p.global_unique_id?.trim() || metaText(p.meta_data, ["_global_unique_id", "global_unique_id", "_gtin", "gtin"]);
      const brand = p.brands?.[0]?.name.trim() || metaText(p.meta_data, ["_brand", "brand"]);
      const row: ProductIdentifiers = {
        productId: p.id,
        variantId: "",
        sku: p.sku?.trim() || undefined,
        gtin: gtinText && isGtin(gtinText) ? gtinText : undefined,
        brand: brand || undefined,
        mpn: metaText(p.meta_data, ["_mpn", "mpn"]),
      };
      return {
        kind: "product",
        product: { productId: p.id, name: p.name, url, imageUrl: image },
        identifiers: row.sku || row.gtin || row.brand || row.mpn ? [row] : [],
      };
    }
    case "customer.created": {
      const c = parseBody(raw, wooCustomer);
      return { kind: "customer", platformCustomerId: c.id, email: c.email ? normaliseEmail(c.email) : null };
    }
  }
}

/** The shop to call: its normalised address and REST API key (consumer key and secret, read/write). */
export type WooSite = { siteUrl: string; consumerKey: string; consumerSecret: string; allowLoopback: boolean; resolve?: Resolve; timeoutMs?: number };

const money = (n: number) => n.toFixed(2);

/**
 * The REST body of a reward's coupon (WooCommerce REST API v3, Coupon properties): percent or fixed_cart with the
 * amount, free shipping as a zero fixed_cart coupon with `free_shipping`, usage limit 1 (and 1 per user), the
 * shopper's e-mail as `email_restrictions`, the rule's `minimum_amount` and the expiry as `date_expires_gmt`.
 */
export function couponBody(d: RewardDiscount & { description: string; email: string | null }): Record<string, unknown> {
  return {
    code: d.code,
    description: d.title,
    discount_type: d.type === "percentage-coupon" ? "percent" : "fixed_cart",
    amount: d.type === "free-shipping" ? "0" : money(d.type === "percentage-coupon" ? Math.min(100, d.value) : d.value),
    free_shipping: d.type === "free-shipping",
    usage_limit: 1,
    usage_limit_per_user: 1,
    individual_use: false,
    email_restrictions: d.email ? [d.email] : [],
    ...(d.minimumOrderAmount ? { minimum_amount: money(d.minimumOrderAmount) } : {}),
    date_expires_gmt: d.endsAt ? d.endsAt.replace(/\.\d+Z$|Z$/, "") : null,
  };
}

/** One REST call. @returns status and parsed JSON, or a failure outcome. Never throws. */
async function rest(site: WooSite, path: string, init: { method: "GET" | "POST"; body?: unknown }): Promise<{ status: number; json: unknown } | Extract<DiscountOutcome, { ok: false }>> {
  try {
    const res = await guardedFetch(`${site.siteUrl}/wp-json/wc/v3/${path}`, {
      method: init.method,
      allowLoopback: site.allowLoopback,
      resolve: site.resolve,
      timeoutMs: site.timeoutMs ?? WOO_CALL_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
      headers: {
        accept: "application/json",
        authorization: `Basic ${Buffer.from(`${site.consumerKey}:${site.consumerSecret}`).toString("base64")}`,
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    let json: unknown = null;
    try {
      json = JSON.parse(res.body.toString("utf8"));
    } catch {
      json = null;
    }
    return { status: res.status, json };
  } catch (error) {
    if (isOutgoingRequestError(error)) return { ok: false, definite: error.kind === "refused" || error.kind === "unresolved", message: `WooCommerce could not be reached: ${error.message}` };
    return { ok: false, definite: false, message: `WooCommerce's answer could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Create the coupon of `d` in the shop. A 5xx may follow a created coupon (not definite); a 4xx created nothing. Never throws. */
export async function createWooCoupon(site: WooSite, d: RewardDiscount & { description: string; email: string | null }): Promise<DiscountOutcome> {
  const answer = await rest(site, "coupons", { method: "POST", body: couponBody(d) });
  if ("ok" in answer) return answer;
  const body = answer.json as { id?: number | string; message?: string } | null;
  if (answer.status < 200 || answer.status >= 300) {
    return { ok: false, definite: answer.status < 500, message: `WooCommerce answered ${answer.status}${body?.message ? `: ${body.message}` : ""}` };
  }
  return body?.id !== undefined ? { ok: true, discountId: `woocommerce:${body.id}` } : { ok: false, definite: false, message: "WooCommerce's answer has no coupon id" };
}

/**
 * Whether the shop has a coupon with `code` (`GET /wp-json/wc/v3/coupons?code=`, the reconciler's question).
 * @returns its ID, null when there is none, undefined when WooCommerce could not answer.
 */
export async function findWooCoupon(site: WooSite, code: string): Promise<string | null | undefined> {
  const answer = await rest(site, `coupons?code=${encodeURIComponent(code)}`, { method: "GET" });
  if ("ok" in answer || answer.status !== 200 || !Array.isArray(answer.json)) return undefined;
  const found = (answer.json as { id?: number | string; code?: string }[]).find((c) => c.code?.toLowerCase() === code.toLowerCase());
  return found?.id !== undefined ? `woocommerce:${found.id}` : null;
}

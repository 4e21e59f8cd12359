/**
 * WooCommerce webhook payloads Chorus applies (docs/platforms.md "WooCommerce"), as zod schemas of the fields
 * WooCommerce's REST API v3 documents for its Order, Product and Customer resources (a webhook body is the
 * resource as the REST API answers it). Other fields are ignored.
 */
import { z } from "zod";

/** A WooCommerce ID: a non-negative JSON integer or a string of digits, as a string. */
const wooId = z.union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,20}$/)]).transform((v) => String(v));
/** WooCommerce money: a decimal string ("19.99", refunds "-10.00") or a number, in currency units. */
const money = z.union([
  z.number().finite(),
  z
    .string()
    .regex(/^-?\d{1,15}(\.\d{1,10})?$/)
    .transform(Number),
]);
/**
 * A WooCommerce GMT time (`date_created_gmt`: "2026-11-20T10:00:00", no zone: UTC) → epoch ms.
 */
const gmtTime = z
  .string()
  .max(40)
  .transform((s) => (/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`))
  .refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO 8601 time")
  .transform((s) => Date.parse(s));
const text = (max: number) => z.string().max(max);
const meta = z
  .array(z.object({ key: text(255), value: z.unknown() }))
  .max(1000)
  .nullish();

/** The order statuses WooCommerce documents; `completed` is Chorus's "fulfilled". */
export const wooOrder = z.object({
  id: wooId,
  number: text(100).nullish(),
  status: text(40),
  currency: text(10).nullish(),
  date_created_gmt: gmtTime,
  date_completed_gmt: gmtTime.nullish(),
  date_modified_gmt: gmtTime.nullish(),
  customer_id: wooId.nullish(),
  billing: z.object({ first_name: text(200).nullish(), last_name: text(200).nullish(), email: text(320).nullish() }).nullish(),
  line_items: z
    .array(
      z.object({
        product_id: wooId.nullish(),
        variation_id: wooId.nullish(),
        name: text(500).nullish(),
        quantity: z.number().int().min(0).max(1_000_000).default(1),
        subtotal: money.nullish(),
        total: money.nullish(),
        price: money.nullish(),
      }),
    )
    .max(1000),
  refunds: z
    .array(z.object({ id: wooId, total: money.nullish() }))
    .max(10_000)
    .nullish(),
  /** The coupons used on the order (WooCommerce stores codes lower-cased); a friend's referral code among them rewards the sender. */
  coupon_lines: z
    .array(z.object({ code: text(255) }))
    .max(1000)
    .nullish(),
  total: money.nullish(),
  meta_data: meta,
});
export type WooOrder = z.output<typeof wooOrder>;

const wooImage = z.object({ src: z.string().max(2000) });
export const wooProduct = z.object({
  id: wooId,
  name: z.string().trim().min(1).max(500),
  permalink: text(2000).nullish(),
  sku: text(255).nullish(),
  global_unique_id: text(255).nullish(),
  images: z.array(wooImage).max(250).nullish(),
  brands: z
    .array(z.object({ name: text(255) }))
    .max(50)
    .nullish(),
  meta_data: meta,
});
export type WooProduct = z.output<typeof wooProduct>;

export const wooCustomer = z.object({
  id: wooId,
  email: text(320).nullish(),
  first_name: text(200).nullish(),
  last_name: text(200).nullish(),
});

/** Topics Chorus applies; any other topic is answered 200 `ignored`. */
export const WOOCOMMERCE_TOPICS = ["order.created", "order.updated", "product.created", "product.updated", "customer.created"] as const;
export type WooCommerceTopic = (typeof WOOCOMMERCE_TOPICS)[number];

/** Headers of a WooCommerce webhook delivery (all optional here: the service answers the creation ping, 401 and 400 in its order). */
export const wooWebhookHeaders = z.object({
  "x-wc-webhook-topic": z
    .string()
    .max(100)
    .optional()
    .meta({ description: "The event, e.g. `order.updated`. Absent only on WooCommerce's creation ping (a form body `webhook_id=N`), which is answered 200." }),
  "x-wc-webhook-signature": z
    .string()
    .optional()
    .meta({ description: "Base64 HMAC-SHA256 of the raw body with the webhook's secret (the store's `webhookSecret`). Missing, malformed or not matching: 401." }),
  "x-wc-webhook-source": z.string().max(2000).optional().meta({ description: "The shop's address (WordPress `home_url`), e.g. `https://shop.example/`: finds the store connected to that `siteUrl`." }),
  "x-wc-webhook-delivery-id": z.string().max(200).optional().meta({ description: "The delivery's ID: a delivery seen before answers 200 `duplicate` and changes nothing." }),
});

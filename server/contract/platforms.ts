/**
 * Webhook payloads Chorus accepts from shop platforms (docs/platforms.md), as zod schemas:
 * - Shopify's own JSON, with the fields Shopify documents for the topics `orders/create`, `orders/fulfilled`,
 *   `orders/cancelled` (an Order), `fulfillments/create` (a Fulfillment) and `products/create|update|delete`
 *   (a Product; delete sends only `id`). Other fields are ignored.
 * - Chorus's own signed-webhook JSON for other platforms (BigCommerce, WooCommerce, custom shops).
 */
import { z } from "zod";

/** A platform ID: a non-negative JSON integer (Shopify) or a string of digits, as a string. */
const shopifyId = z.union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,20}$/)]).transform((v) => String(v));
/** Shopify money: a decimal string ("19.99") or a number, in currency units. */
const money = z.union([
  z.number().finite(),
  z
    .string()
    .regex(/^-?\d{1,15}(\.\d{1,10})?$/)
    .transform(Number),
]);
const isoTime = z
  .string()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO 8601 time")
  .transform((s) => Date.parse(s));
const text = (max: number) => z.string().max(max);

export const shopifyLineItem = z.object({
  product_id: shopifyId.nullish(),
  variant_id: shopifyId.nullish(),
  title: text(500).nullish(),
  price: money.nullish(),
  quantity: z.number().int().min(0).max(1_000_000).default(1),
});

export const shopifyOrder = z.object({
  id: shopifyId,
  name: text(100).nullish(),
  email: text(320).nullish(),
  contact_email: text(320).nullish(),
  created_at: isoTime,
  cancelled_at: isoTime.nullish(),
  fulfillment_status: text(40).nullish(),
  currency: text(10).nullish(),
  subtotal_price: money.nullish(),
  total_price: money.nullish(),
  customer_locale: text(35).nullish(),
  customer: z.object({ id: shopifyId, first_name: text(200).nullish(), last_name: text(200).nullish(), email: text(320).nullish() }).nullish(),
  line_items: z.array(shopifyLineItem).max(1000),
  fulfillments: z
    .array(z.object({ created_at: isoTime.nullish(), status: text(40).nullish() }))
    .max(1000)
    .nullish(),
  discount_codes: z
    .array(z.object({ code: text(255) }))
    .max(100)
    .nullish(),
});
export type ShopifyOrder = z.output<typeof shopifyOrder>;

export const shopifyFulfillment = z.object({
  id: shopifyId.nullish(),
  order_id: shopifyId,
  status: text(40).nullish(),
  created_at: isoTime.nullish(),
});

const image = z.object({ src: z.url().max(2000) });
export const shopifyProduct = z.object({
  id: shopifyId,
  title: z.string().trim().min(1).max(500),
  handle: z
    .string()
    .regex(/^[\p{L}\p{N}_-]{1,255}$/u, "handle must be a Shopify product handle")
    .nullish(),
  image: image.nullish(),
  images: z.array(image).max(250).nullish(),
  vendor: text(255).nullish(),
  variants: z
    .array(z.object({ id: shopifyId, barcode: text(255).nullish(), sku: text(255).nullish() }))
    .max(2048)
    .nullish(),
});
export const shopifyProductDelete = z.object({ id: shopifyId });

/**
 * A Shopify Refund (`refunds/create`): the refunded amount is the sum of the refund line items' `subtotal`, or, without
 * line items (an amount refunded on its own), of the `refund` transactions' `amount` (docs/loyalty.md "Pending points and refunds").
 */
export const shopifyRefund = z.object({
  id: shopifyId,
  order_id: shopifyId,
  refund_line_items: z
    .array(z.object({ subtotal: money.nullish() }))
    .max(10_000)
    .nullish(),
  transactions: z
    .array(z.object({ kind: text(40).nullish(), amount: money.nullish() }))
    .max(10_000)
    .nullish(),
});
export type ShopifyRefund = z.output<typeof shopifyRefund>;

/** Topics of Shopify webhooks Chorus applies; any other topic is answered 200 and ignored. */
export const SHOPIFY_TOPICS = ["orders/create", "orders/fulfilled", "fulfillments/create", "orders/cancelled", "refunds/create", "products/create", "products/update", "products/delete"] as const;
export type ShopifyTopic = (typeof SHOPIFY_TOPICS)[number];

/** Headers of a Shopify webhook delivery. */
export const shopifyWebhookHeaders = z.object({
  "x-shopify-topic": z.string().min(1).max(100).meta({ description: "The event, e.g. `orders/create`. Topics Chorus does not use are answered 200 and ignored." }),
  "x-shopify-hmac-sha256": z
    .string()
    .optional()
    .meta({ description: "Base64 HMAC-SHA256 of the raw body with the app secret of the shop's connection. Missing, empty, not 32 bytes of base64 or not matching: 401." }),
  "x-shopify-shop-domain": z.string().min(1).max(255).meta({ description: "The shop, e.g. `example.myshopify.com`: finds the store." }),
  "x-shopify-webhook-id": z.string().min(1).max(200).meta({ description: "The delivery's ID: a delivery seen before answers 200 and changes nothing." }),
});

const productId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._:-]{1,100}$/, "productId must be 1 to 100 letters, digits, '.', '_', ':' or '-'");
const isoUtc = z.iso.datetime({ offset: true, error: "must be an ISO 8601 time" });

/** An order in a signed webhook (our own JSON). Money in currency units; dates ISO 8601. */
export const signedWebhookOrder = z.object({
  orderId: z.string().trim().min(1).max(100).meta({ description: "The shop's order ID (unique in the store)." }),
  name: z.string().max(100).optional().meta({ description: "The order number shoppers see, e.g. `#1001`." }),
  email: z.email().max(320).optional().meta({ description: "The buyer's e-mail (review requests go there)." }),
  customerId: z.string().trim().min(1).max(200).optional().meta({ description: "The platform's customer ID: the `sub` of the shopper's platform token (verified buyers, loyalty points)." }),
  customerName: z.string().max(200).optional(),
  locale: z.string().max(35).optional().meta({ description: "The buyer's language, e.g. `en` or `fr-CA`." }),
  currency: z.string().max(10).optional(),
  subtotal: z.number().finite().min(0).max(1e12).optional().meta({ description: "Order subtotal in currency units; points-per-spend earns on it." }),
  dateCreated: isoUtc,
  discountCodes: z
    .array(z.string().trim().min(1).max(255))
    .max(100)
    .optional()
    .meta({ description: 'Discount codes the order used (a referral\'s friend code rewards its sender: docs/loyalty.md "Referrals").' }),
  lines: z
    .array(
      z.object({
        productId,
        variantId: z.string().max(100).optional(),
        title: z.string().max(500).optional(),
        price: z.number().finite().min(0).max(1e12).optional(),
        quantity: z.number().int().min(0).max(1_000_000).optional(),
      }),
    )
    .min(1)
    .max(1000),
});

/** The body of `POST /platforms/webhooks/{storeId}`: one event. */
export const signedWebhookBody = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("order.created"), order: signedWebhookOrder }),
    z.object({ type: z.literal("order.fulfilled"), order: signedWebhookOrder, dateFulfilled: isoUtc.optional() }),
    z.object({ type: z.literal("order.cancelled"), order: signedWebhookOrder, dateCancelled: isoUtc.optional() }),
    z.object({
      type: z.literal("product.upserted"),
      product: z.object({ productId, name: z.string().trim().min(1).max(500), url: z.url().max(2000).optional(), imageUrl: z.url().max(2000).optional() }),
    }),
    z.object({ type: z.literal("product.deleted"), product: z.object({ productId }) }),
  ])
  .meta({ description: "One event of the shop: an order created, fulfilled or cancelled, or a product upserted or deleted." });
export type SignedWebhookBody = z.output<typeof signedWebhookBody>;

/** Headers of a signed webhook delivery. */
export const signedWebhookHeaders = z.object({
  "x-chorus-signature": z
    .string()
    .optional()
    .meta({ description: "`sha256=` and the hex HMAC-SHA256, with the store's app secret, of `<X-Chorus-Timestamp>.<raw body>`. Missing, malformed or not matching: 401." }),
  "x-chorus-webhook-id": z.string().min(1).max(200).meta({ description: "The delivery's ID: a delivery seen before answers 200 and changes nothing." }),
  "x-chorus-timestamp": z
    .string()
    .optional()
    .meta({ description: "When the delivery was signed, in Unix seconds; missing, malformed or more than 5 minutes away from the server's clock is refused (401)." }),
});

/** The answer to a webhook: what was done with the delivery. */
export const webhookResponseSchema = z
  .object({
    outcome: z
      .enum(["applied", "ignored", "duplicate"])
      .meta({ description: "`applied`: stored; `ignored`: a topic Chorus does not use; `duplicate`: this delivery ID was seen before, nothing changed." }),
  })
  .meta({ id: "WebhookOutcome" });
export type WebhookOutcome = z.output<typeof webhookResponseSchema>["outcome"];

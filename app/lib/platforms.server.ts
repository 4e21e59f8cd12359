/**
 * Operation declarations of the shop-platform connection (issue #22, docs/platforms.md): the Shopify
 * webhook receiver, the signed-webhook receiver for other platforms, and the store settings API
 * (`GET/PATCH /enterprise/settings`). Webhooks are `auth: "signature"`: the service checks the HMAC of
 * the raw body, read here through the one bounded reader before anything is parsed.
 */
import { z } from "zod";
import { defineOperation } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { shopifyWebhookHeaders, signedWebhookBody, signedWebhookHeaders, webhookResponseSchema } from "../../server/contract/platforms.ts";
import { wooWebhookHeaders } from "../../server/contract/woocommerce.ts";
import { storeIdParam } from "../../server/contract/params.ts";
import { WEBHOOK_MAX_BYTES } from "../../server/platforms/platforms.service.ts";
import { settingsPatchSchema, settingsSchema } from "../../server/settings/settings.service.ts";
import { readBodyBytes } from "../../server/shared/body.ts";

const WEBHOOK_ERRORS = {
  400: { description: "A header is missing or malformed, or the signed body is not the documented JSON (the description names the field)", schema: errorResponses(400)[400].schema },
  401: {
    description:
      "The signature header is missing, empty or malformed, or does not match the body (signed webhooks: also a missing or malformed timestamp, or one over 5 minutes away); nothing is stored",
    schema: errorResponses(400)[400].schema,
  },
  404: { description: "No store is connected to this shop (or has no app secret set)", schema: errorResponses(404)[404].schema },
  413: errorResponses(413)[413],
};

/** POST /platforms/shopify/webhooks: Shopify's webhooks (topics in the description). */
export const shopifyWebhook = defineOperation({
  id: "receiveShopifyWebhook",
  method: "POST",
  api: "platform",
  auth: "signature",
  tags: ["Webhooks"],
  signature: { header: "X-Shopify-Hmac-Sha256", description: "Base64 HMAC-SHA256 of the raw request body, keyed with the app secret of the store's platform connection (as Shopify signs webhooks)." },
  summary: "Receive a Shopify webhook (orders, fulfilments, products)",
  description:
    "Topics applied: `orders/create`, `orders/fulfilled`, `fulfillments/create`, `orders/cancelled` (Shopify's Order and Fulfillment JSON), " +
    "`products/create`, `products/update`, `products/delete` (Product JSON); the mandatory privacy topics `customers/redact` (the customer's data is erased), " +
    "`customers/data_request` (the store's members are e-mailed a link to the customer's data) and `shop/redact` (every shopper's data of the store is erased). Other topics are answered 200 `ignored`. " +
    "Checks in this order: headers (400), body size (413), signature header present and a base64 HMAC-SHA256 (401), shop connected (404), signature matches (401), delivery seen before (200 `duplicate`), body (400). " +
    "Each delivery is applied in one transaction.",
  headers: shopifyWebhookHeaders,
  body: { schema: z.record(z.string(), z.unknown()).meta({ description: "Shopify's JSON for the topic." }), read: "handler", contentTypes: ["application/json"], maxBytes: WEBHOOK_MAX_BYTES },
  responses: { 200: { description: "The delivery was applied, ignored or already applied", schema: webhookResponseSchema }, ...WEBHOOK_ERRORS },
  handler: async ({ request, headers, context }) => {
    const raw = await readBodyBytes(request, WEBHOOK_MAX_BYTES);
    const outcome = await context.services.platforms.receiveShopify(
      { topic: headers["x-shopify-topic"], hmac: headers["x-shopify-hmac-sha256"] ?? "", shopDomain: headers["x-shopify-shop-domain"], webhookId: headers["x-shopify-webhook-id"] },
      raw,
      context.services.reviewRequests,
      async (storeId, topic, body) => {
        await context.services.privacy.shopifyPrivacyRequest(storeId, topic, body, context.publicOrigin);
      },
    );
    return { outcome };
  },
});

/** POST /platforms/webhooks/{storeId}: Chorus's signed JSON for any platform. */
export const signedWebhook = defineOperation({
  id: "receiveSignedWebhook",
  method: "POST",
  api: "platform",
  auth: "signature",
  tags: ["Webhooks"],
  signature: { header: "X-Chorus-Signature", description: "`sha256=` and the hex HMAC-SHA256, keyed with the store's app secret, of `<X-Chorus-Timestamp>.<raw body>`." },
  summary: "Receive a signed webhook from any shop platform (orders, products)",
  description:
    "For BigCommerce, WooCommerce or a custom shop: one event per delivery in Chorus's JSON. " +
    "Checks in this order: headers (400), body size (413), store connected (404), signature and timestamp present, well-formed, matching and recent (401), delivery seen before (200 `duplicate`), body (400).",
  params: z.object({ storeId: storeIdParam }),
  headers: signedWebhookHeaders,
  body: { schema: signedWebhookBody, read: "handler", contentTypes: ["application/json"], maxBytes: WEBHOOK_MAX_BYTES },
  responses: { 200: { description: "The delivery was applied or already applied", schema: webhookResponseSchema }, ...WEBHOOK_ERRORS },
  handler: async ({ request, params, headers, context }) => {
    const raw = await readBodyBytes(request, WEBHOOK_MAX_BYTES);
    const outcome = await context.services.platforms.receiveSigned(
      params.storeId,
      { signature: headers["x-chorus-signature"] ?? "", webhookId: headers["x-chorus-webhook-id"], timestamp: headers["x-chorus-timestamp"] ?? "" },
      raw,
      context.services.reviewRequests,
    );
    return { outcome };
  },
});

/** POST /platforms/woocommerce/webhooks: WooCommerce's webhooks (topics in the description). */
export const wooCommerceWebhook = defineOperation({
  id: "receiveWooCommerceWebhook",
  method: "POST",
  api: "platform",
  auth: "signature",
  tags: ["Webhooks"],
  signature: { header: "X-WC-Webhook-Signature", description: "Base64 HMAC-SHA256 of the raw request body, keyed with the store's WooCommerce `webhookSecret` (as WooCommerce signs webhooks)." },
  summary: "Receive a WooCommerce webhook (orders, products, customers)",
  description:
    "One delivery URL for every store: `X-WC-Webhook-Source` (the shop's address) finds the store connected to that `siteUrl`. " +
    "Topics applied: `order.created`, `order.updated` (status `completed`: fulfilled; `cancelled`: cancelled; `refunds[]` and status `refunded`: points taken back), " +
    "`product.created`, `product.updated` (name, permalink, image, SKU, GTIN, brand) and `customer.created` (the e-mail of the shopper's loyalty account); other topics are answered 200 `ignored`. " +
    "WooCommerce's creation ping (a form body `webhook_id=N` without a topic) is answered 200 `ignored`. " +
    "Checks in this order: headers (400), body size (413), signature header present and a base64 HMAC-SHA256 (401), site connected (404), signature matches (401), " +
    "delivery ID seen before (200 `duplicate`), the same signed body seen before under another delivery ID (401, a replay), body (400). Each delivery is applied in one transaction.",
  headers: wooWebhookHeaders,
  body: {
    schema: z.record(z.string(), z.unknown()).meta({ description: "WooCommerce's JSON of the resource (REST API v3 Order, Product or Customer)." }),
    read: "handler",
    contentTypes: ["application/json", "application/x-www-form-urlencoded"],
    maxBytes: WEBHOOK_MAX_BYTES,
  },
  responses: {
    200: { description: "The delivery was applied, ignored (or the creation ping), or already applied", schema: webhookResponseSchema },
    ...WEBHOOK_ERRORS,
    401: {
      description: "The signature header is missing or malformed, does not match the body, or the signed body was delivered before under another delivery ID (a replay); nothing is stored",
      schema: errorResponses(400)[400].schema,
    },
    404: { description: "No store is connected to this WooCommerce site (or has no webhook secret set)", schema: errorResponses(404)[404].schema },
  },
  handler: async ({ request, headers, context }) => {
    const raw = await readBodyBytes(request, WEBHOOK_MAX_BYTES);
    const outcome = await context.services.platforms.receiveWooCommerce(
      { topic: headers["x-wc-webhook-topic"], signature: headers["x-wc-webhook-signature"], source: headers["x-wc-webhook-source"], deliveryId: headers["x-wc-webhook-delivery-id"] },
      raw,
      context.services.reviewRequests,
    );
    return { outcome };
  },
});

/** GET /enterprise/settings */
export const getSettings = defineOperation({
  id: "getStoreSettings",
  method: "GET",
  api: "enterprise",
  auth: "basic",
  tags: ["Settings"],
  summary: "Read the store's settings (platform connection and the other sections)",
  description: "Write-only values (the platform app secret) are never returned: the answer says only whether they are set.",
  responses: { 200: { description: "Every settings section", schema: settingsSchema }, ...errorResponses(401) },
  handler: async ({ storeId, context }) => await context.services.settings.get(storeId, context.publicOrigin),
});

/** PATCH /enterprise/settings */
export const patchSettings = defineOperation({
  id: "updateStoreSettings",
  method: "PATCH",
  api: "enterprise",
  auth: "basic",
  tags: ["Settings"],
  summary: "Change some of the store's settings",
  description: "Send only the sections and fields to change. All changes apply together or, on any error, none does. Answers the settings after the change.",
  body: { schema: settingsPatchSchema, read: "json", contentTypes: ["application/json"] },
  responses: { 200: { description: "Every settings section, after the change", schema: settingsSchema }, ...errorResponses(400, 401, 409, 413, 415) },
  handler: async ({ storeId, body, context }) => {
    await context.services.settings.update(storeId, body);
    return await context.services.settings.get(storeId, context.publicOrigin);
  },
});

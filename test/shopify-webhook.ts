/**
 * Send a Shopify webhook as Shopify does (docs/platforms.md "Shopify"; Shopify webhook docs): POST the JSON body to
 * `/platforms/shopify/webhooks` of the server at `url(path)`, with `X-Shopify-Topic`, `-Shop-Domain`, a fresh
 * `-Webhook-Id` and `X-Shopify-Hmac-Sha256`, the base64 HMAC-SHA256 of the raw body with the app `secret`.
 */
import { createHmac, randomUUID } from "node:crypto";

export async function postShopifyWebhook(url: (path: string) => string, options: { shop: string; secret: string; topic: string; body: unknown }): Promise<Response> {
  const raw = JSON.stringify(options.body);
  return fetch(url("/platforms/shopify/webhooks"), {
    method: "POST",
    body: raw,
    headers: {
      "content-type": "application/json",
      "x-shopify-topic": options.topic,
      "x-shopify-shop-domain": options.shop,
      "x-shopify-webhook-id": randomUUID(),
      "x-shopify-hmac-sha256": createHmac("sha256", options.secret).update(raw).digest("base64"),
    },
  });
}

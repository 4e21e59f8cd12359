/**
 * Enterprise API operations of outgoing webhook subscriptions (docs/webhooks.md): list, create, change,
 * delete, rotate the signing secret. Declared once here; the route modules
 * `enterprise.webhook_subscriptions*.ts` export them (server/api/remix.ts).
 */
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import {
  createWebhookSubscriptionSchema,
  deletedWebhookSubscriptionSchema,
  subscriptionIdParamsSchema,
  updateWebhookSubscriptionSchema,
  webhookSubscriptionResponseSchema,
  webhookSubscriptionsResponseSchema,
  webhookSubscriptionWithSecretSchema,
} from "../../server/contract/webhooks.ts";

const tags = ["Webhooks"] as const;
const SMALL_BODY = 16 * 1024;

/** GET /enterprise/webhook_subscriptions → the store's subscriptions. */
export const listWebhookSubscriptions = defineOperation({
  id: "listWebhookSubscriptions",
  method: "GET",
  api: "enterprise",
  auth: "basic",
  tags,
  summary: "List webhook subscriptions",
  responses: { 200: { description: "The store's subscriptions, oldest first", schema: webhookSubscriptionsResponseSchema }, ...errorResponses(401) },
  handler: async ({ storeId, context }) => ({ subscriptions: await context.services.webhooks.list(storeId) }),
});

/** POST /enterprise/webhook_subscriptions → 201 with the secret, shown once. */
export const createWebhookSubscription = defineOperation({
  id: "createWebhookSubscription",
  method: "POST",
  api: "enterprise",
  auth: "basic",
  tags,
  summary: "Subscribe a URL to event types",
  description: "The answer carries the signing secret, shown only here: every delivery is signed with it (`Chorus-Signature`). The URL must be `https://` on a public address.",
  body: { schema: createWebhookSubscriptionSchema, read: "json", contentTypes: ["application/json"], maxBytes: SMALL_BODY },
  responses: { 201: { description: "The subscription and its signing secret", schema: webhookSubscriptionWithSecretSchema }, ...errorResponses(400, 401, 409, 413, 415) },
  handler: async ({ storeId, body, context }) => reply(await context.services.webhooks.create(storeId, body), { status: 201 }),
});

/** PUT /enterprise/webhook_subscriptions/{subscriptionId} → the changed subscription. */
export const updateWebhookSubscription = defineOperation({
  id: "updateWebhookSubscription",
  method: "PUT",
  api: "enterprise",
  auth: "basic",
  tags,
  summary: "Change a webhook subscription",
  description: "Fields left out keep their value. `status: enabled` turns a disabled subscription on again.",
  params: subscriptionIdParamsSchema,
  body: { schema: updateWebhookSubscriptionSchema, read: "json", contentTypes: ["application/json"], maxBytes: SMALL_BODY },
  responses: { 200: { description: "The subscription as changed", schema: webhookSubscriptionResponseSchema }, ...errorResponses(400, 401, 404, 413, 415) },
  handler: async ({ storeId, params, body, context }) => ({ subscription: await context.services.webhooks.update(storeId, params.subscriptionId, body) }),
});

/** DELETE /enterprise/webhook_subscriptions/{subscriptionId}. */
export const deleteWebhookSubscription = defineOperation({
  id: "deleteWebhookSubscription",
  method: "DELETE",
  api: "enterprise",
  auth: "basic",
  tags,
  summary: "Delete a webhook subscription",
  params: subscriptionIdParamsSchema,
  responses: { 200: { description: "Deleted with its delivery log", schema: deletedWebhookSubscriptionSchema }, ...errorResponses(400, 401, 404) },
  handler: async ({ storeId, params, context }) => {
    await context.services.webhooks.remove(storeId, params.subscriptionId);
    return { subscriptionId: params.subscriptionId, deleted: true as const };
  },
});

/** POST /enterprise/webhook_subscriptions/{subscriptionId}/rotate_secret → the new secret, shown once. */
export const rotateWebhookSecret = defineOperation({
  id: "rotateWebhookSecret",
  method: "POST",
  api: "enterprise",
  auth: "basic",
  tags,
  summary: "Replace a subscription's signing secret",
  description: "Deliveries from now on are signed with the new secret, shown only in this answer; the old one stops working at once.",
  params: subscriptionIdParamsSchema,
  responses: { 200: { description: "The subscription and its new signing secret", schema: webhookSubscriptionWithSecretSchema }, ...errorResponses(400, 401, 404) },
  handler: async ({ storeId, params, context }) => await context.services.webhooks.rotateSecret(storeId, params.subscriptionId),
});

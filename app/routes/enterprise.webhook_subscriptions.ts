import { remixHandlers } from "../../server/api/remix.ts";
import { createWebhookSubscription, listWebhookSubscriptions } from "~/lib/webhooks.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([listWebhookSubscriptions, createWebhookSubscription]);
export const action = loader;

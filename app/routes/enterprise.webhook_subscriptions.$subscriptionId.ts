import { remixHandlers } from "../../server/api/remix.ts";
import { deleteWebhookSubscription, updateWebhookSubscription } from "~/lib/webhooks.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([updateWebhookSubscription, deleteWebhookSubscription]);
export const action = loader;

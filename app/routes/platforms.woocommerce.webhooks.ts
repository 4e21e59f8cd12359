import { remixHandlers } from "../../server/api/remix.ts";
import { wooCommerceWebhook } from "~/lib/platforms.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([wooCommerceWebhook]);
export const action = loader;

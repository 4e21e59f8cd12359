import { remixHandlers } from "../../server/api/remix.ts";
import { exportOrders } from "~/lib/exports.server";

/** Declared once here: the Remix loader, the fast path and the OpenAPI document all run from it (server/api/remix.ts). */
export const loader = remixHandlers([exportOrders]);
export const action = loader;

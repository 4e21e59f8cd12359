import { remixHandlers } from "../../server/api/remix.ts";
import { exportShopperData } from "~/lib/privacy.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([exportShopperData]);
export const action = loader;

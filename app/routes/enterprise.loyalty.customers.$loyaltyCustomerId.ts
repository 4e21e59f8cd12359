import { remixHandlers } from "../../server/api/remix.ts";
import { getCustomer, patchCustomer } from "~/lib/loyalty-lifecycle.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([getCustomer, patchCustomer]);
export const action = loader;

import { remixHandlers } from "../../server/api/remix.ts";
import { questionAggregate } from "~/lib/storefront.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([questionAggregate]);
export const action = loader;

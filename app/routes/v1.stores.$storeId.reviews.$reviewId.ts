import { remixHandlers } from "../../server/api/remix.ts";
import { getReview } from "~/lib/storefront.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([getReview]);
export const action = loader;

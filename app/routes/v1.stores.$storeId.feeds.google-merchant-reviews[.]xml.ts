import { remixHandlers } from "../../server/api/remix.ts";
import { googleMerchantReviewsFeed } from "~/lib/feeds.server";

/** Declared once here: the Remix loader, the fast path and the OpenAPI document all run from it (server/api/remix.ts). */
export const loader = remixHandlers([googleMerchantReviewsFeed]);
export const action = loader;

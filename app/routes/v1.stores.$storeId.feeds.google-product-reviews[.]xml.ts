import { remixHandlers } from "../../server/api/remix.ts";
import { googleProductReviewsFeed } from "~/lib/feeds.server";

/** Declared once here: the Remix loader, the fast path and the OpenAPI document all run from it (server/api/remix.ts). */
export const loader = remixHandlers([googleProductReviewsFeed]);
export const action = loader;

import { remixHandlers } from "../../server/api/remix.ts";
import { submitStoreReview } from "~/lib/writes-operations.server";

/** Declared once here: the Remix action, the fast path and the OpenAPI document all run from it (server/api/remix.ts). */
export const loader = remixHandlers([submitStoreReview]);
export const action = loader;

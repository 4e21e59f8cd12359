import { remixHandlers } from "../../server/api/remix.ts";
import { exportReviews } from "~/lib/exports.server";

/** Declared once here: the Remix loader, the fast path and the OpenAPI document all run from it (server/api/remix.ts). */
export const loader = remixHandlers([exportReviews]);
export const action = loader;

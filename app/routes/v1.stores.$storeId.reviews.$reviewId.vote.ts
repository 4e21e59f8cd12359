import { remixHandlers } from "../../server/api/remix.ts";
import { okendoReviewVote } from "~/lib/writes-operations.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([okendoReviewVote]);
export const action = loader;

import { remixHandlers } from "../../server/api/remix.ts";
import { legalPolicies } from "~/lib/loyalty.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([legalPolicies]);
export const action = loader;

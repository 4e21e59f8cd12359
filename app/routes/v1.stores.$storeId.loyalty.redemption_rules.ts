import { remixHandlers } from "../../server/api/remix.ts";
import { redemptionRules } from "~/lib/loyalty.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([redemptionRules]);
export const action = loader;

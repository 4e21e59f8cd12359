import { earningRulesLoader, methodNotAllowed } from "~/lib/loyalty.server";

/** GET /v1/stores/{store_id}/loyalty/earning_rules: general, or tailored with a Bearer token. */
export const loader = earningRulesLoader;
export const action = methodNotAllowed("GET");

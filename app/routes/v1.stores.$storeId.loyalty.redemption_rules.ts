import { methodNotAllowed, redemptionRulesLoader } from "~/lib/loyalty.server";

/** GET /v1/stores/{store_id}/loyalty/redemption_rules: general, or tailored with a Bearer token. */
export const loader = redemptionRulesLoader;
export const action = methodNotAllowed("GET");

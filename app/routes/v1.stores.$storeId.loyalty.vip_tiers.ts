import { methodNotAllowed, vipTiersLoader } from "~/lib/loyalty.server";

/** GET /v1/stores/{store_id}/loyalty/vip_tiers: general, or tailored with a Bearer token. */
export const loader = vipTiersLoader;
export const action = methodNotAllowed("GET");

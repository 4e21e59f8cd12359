import { methodNotAllowed, redemptionsAction } from "~/lib/loyalty.server";

/** POST /v1/stores/{store_id}/loyalty/customer/redemptions (Bearer; enrolled customers only). */
export const action = redemptionsAction;
export const loader = methodNotAllowed("POST");

import { customerActivationAction, methodNotAllowed } from "~/lib/loyalty.server";

/** POST /v1/stores/{store_id}/loyalty/customer_activation (interface.md §4.3, decisions.md §4). */
export const action = customerActivationAction;
export const loader = methodNotAllowed("POST");

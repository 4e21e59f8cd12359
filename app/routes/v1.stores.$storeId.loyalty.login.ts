import { loginAction, methodNotAllowed } from "~/lib/loyalty.server";

/** POST /v1/stores/{store_id}/loyalty/login (decisions.md §4). */
export const action = loginAction;
export const loader = methodNotAllowed("POST");

import { methodNotAllowed, orderEarningAction } from "~/lib/loyalty.server";

/** POST /enterprise/loyalty/earning_transactions: points for an order (Basic auth, idempotent per orderId). */
export const action = orderEarningAction;
export const loader = methodNotAllowed("POST");

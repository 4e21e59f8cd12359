import { methodNotAllowed, transactionsLoader } from "~/lib/loyalty.server";

/** GET /v1/stores/{store_id}/loyalty/customer/transactions (Bearer; keyset-paged with nextUrl). */
export const loader = transactionsLoader;
export const action = methodNotAllowed("GET");

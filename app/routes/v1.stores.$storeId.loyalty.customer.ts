import { customerLoader, methodNotAllowed } from "~/lib/loyalty.server";

/** GET /v1/stores/{store_id}/loyalty/customer (Bearer). */
export const loader = customerLoader;
export const action = methodNotAllowed("GET");

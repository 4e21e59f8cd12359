import { legalPoliciesLoader, methodNotAllowed } from "~/lib/loyalty.server";

/** GET /v1/stores/{store_id}/loyalty/legal_policies (interface.md §2.5). */
export const loader = legalPoliciesLoader;
export const action = methodNotAllowed("GET");

import { remixHandlers } from "../../server/api/remix.ts";
import { createReferralSender } from "~/lib/referrals.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([createReferralSender]);
export const action = loader;

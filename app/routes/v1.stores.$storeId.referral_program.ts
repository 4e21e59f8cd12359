import { remixHandlers } from "../../server/api/remix.ts";
import { getReferralProgram } from "~/lib/referrals.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([getReferralProgram]);
export const action = loader;

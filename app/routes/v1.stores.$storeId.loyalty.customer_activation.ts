import { remixHandlers } from "../../server/api/remix.ts";
import { customerActivation } from "~/lib/loyalty.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([customerActivation]);
export const action = loader;

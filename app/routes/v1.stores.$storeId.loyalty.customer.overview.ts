import { remixHandlers } from "../../server/api/remix.ts";
import { customerOverview } from "~/lib/loyalty-lifecycle.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([customerOverview]);
export const action = loader;

import { remixHandlers } from "../../server/api/remix.ts";
import { openApi } from "~/lib/openapi.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([openApi("platform")]);
export const action = loader;

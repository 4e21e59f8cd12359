import { remixHandlers } from "../../server/api/remix.ts";
import { getWidgetPlusSettings } from "~/lib/widget-settings.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([getWidgetPlusSettings]);
export const action = loader;

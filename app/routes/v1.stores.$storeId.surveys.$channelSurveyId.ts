import { remixHandlers } from "../../server/api/remix.ts";
import { getStorefrontSurvey } from "~/lib/surveys.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([getStorefrontSurvey]);
export const action = loader;

import { remixHandlers } from "../../server/api/remix.ts";
import { getSnippet } from "~/lib/snippets.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([getSnippet("product")]);
export const action = loader;

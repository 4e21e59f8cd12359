import { remixHandlers } from "../../server/api/remix.ts";
import { listQuestions } from "~/lib/storefront.server";
import { askQuestion } from "~/lib/writes-operations.server";

/** Declared once here: the Remix loader/action, the fast path and the OpenAPI document all run from these (server/api/remix.ts). */
export const loader = remixHandlers([listQuestions("product"), askQuestion]);
export const action = loader;

/**
 * Route helpers of the enterprise interface (interface.md §4.1, §5, §7; decisions.md §5): every
 * operation authenticates with HTTP Basic first, so a request without valid credentials gets the
 * bodiless 401 before any 400 or 404.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ApiError } from "../../server/contract/errors.ts";
import { handle, json } from "./api.server.ts";

type Args = LoaderFunctionArgs | ActionFunctionArgs;

/**
 * Wrap an enterprise handler: authenticate (`services.apiKeys.authenticateBasic`), then call `fn`
 * with the authenticated store ID. Errors become the JSON error of decisions.md §1 (401: no body).
 */
export function enterpriseHandle(fn: (args: Args, storeId: string) => Promise<Response> | Response) {
  return handle(async (args: Args) => {
    const storeId = args.context.services.apiKeys.authenticateBasic(args.request.headers.get("authorization"));
    return fn(args, storeId);
  });
}

/** An enterprise JSON answer: private, never cached by shared caches. */
export const enterpriseJson = (request: Request, data: unknown) => json(request, data, { cache: "private" });

/** Authenticated, but the method is not one the path offers: 405 JSON. */
export const methodNotAllowed = (allow: string) =>
  enterpriseHandle(() => {
    throw new ApiError(405, `Method not allowed: use ${allow}`, "method_not_allowed");
  });

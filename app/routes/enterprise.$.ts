import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResult, unknownEndpoint } from "../../server/api/operation.ts";
import { toResponse } from "../../server/api/remix.ts";

/** Any /enterprise path no route matches: 401 without valid credentials (nothing is revealed to strangers), else the JSON 404. */
const unknownPath = async ({ request, context }: LoaderFunctionArgs) => {
  try {
    await context.services.apiKeys.authenticateBasic(request.headers.get("authorization"));
    throw unknownEndpoint();
  } catch (error) {
    return toResponse(request, errorResult(error, request));
  }
};
export const loader = unknownPath;
export const action = unknownPath;

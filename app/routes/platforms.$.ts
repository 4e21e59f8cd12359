import { errorResult, unknownEndpoint } from "../../server/api/operation.ts";
import { toResponse } from "../../server/api/remix.ts";

/** Any /platforms path no route matches: the JSON 404 of docs/api.md, Errors (never an HTML page). */
const notFoundResponse = ({ request }: { request: Request }) => toResponse(request, errorResult(unknownEndpoint(), request));
export const loader = notFoundResponse;
export const action = notFoundResponse;

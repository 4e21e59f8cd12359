import { errorResponse } from "~/lib/api.server";
import { notFound } from "../../server/contract/errors.ts";

/** Any /v1 path no route matches: the JSON 404 of decisions.md §1 (never an HTML page). */
const notFoundResponse = () => errorResponse(notFound("No such endpoint", "endpoint_not_found"));
export const loader = notFoundResponse;
export const action = notFoundResponse;

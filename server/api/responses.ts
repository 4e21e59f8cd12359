/**
 * Documented error answers shared by operation declarations (docs/api.md, Errors): every 4xx carries
 * `{"error":{"description","code"?}}` — also the 401 of a customer token or a webhook signature — except the
 * 401 of HTTP Basic (enterprise), which has no body and says `WWW-Authenticate: Basic`: the OpenAPI documents
 * describe the 401 of every `auth: "basic"` operation so (server/api/openapi.ts `BASIC_UNAUTHORIZED`).
 */
import { errorBodySchema } from "../contract/errors.schema.ts";
import type { ResponseSpec } from "./operation.ts";

const ERRORS: Record<number, string> = {
  400: "A parameter, header or body field is invalid (the description names it)",
  401: "Credentials missing or not valid",
  403: "Not allowed for these credentials",
  404: "The store, product, group or item does not exist",
  405: "The path does not accept this method (see `Allow`)",
  409: "Conflicts with the current state (e.g. already done)",
  413: "The request body is too large (the connection is closed)",
  415: "The body's Content-Type is not one the operation accepts",
  422: "The request is well-formed but cannot be processed",
  429: "Too many requests from this client: try again later (see `Retry-After`)",
  503: "Not possible right now (e.g. the shop platform could not create the reward): nothing was changed; try again after `Retry-After`",
};

/** Documented error answers for `statuses`, each with the error body. */
export function errorResponses(...statuses: number[]): Record<number, ResponseSpec> {
  return Object.fromEntries(statuses.map((status) => [status, { description: ERRORS[status] ?? "Error", schema: errorBodySchema }]));
}

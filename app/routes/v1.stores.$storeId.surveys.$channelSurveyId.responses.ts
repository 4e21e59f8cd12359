import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiError, badRequest } from "../../server/contract/errors.ts";
import { idempotencyKeySchema } from "../../server/contract/surveys.ts";
import { handle, json } from "~/lib/api.server";

/** Largest accepted submission body (bytes). */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * POST /v1/stores/{store_id}/surveys/{channelSurveyId}/responses: a storefront survey submission
 * (decisions.md §3). 201 `{ surveyResponse: { surveyResponseId, dateCreated, reward? } }`; an
 * `Idempotency-Key` retry answers the same 201 body without storing twice.
 */
export const action = handle(async ({ request, params, context }: ActionFunctionArgs) => {
  if (request.method !== "POST") throw new ApiError(405, "Method not allowed: use POST", "method_not_allowed");
  const keyHeader = request.headers.get("idempotency-key");
  const key = keyHeader === null ? undefined : idempotencyKeySchema.safeParse(keyHeader);
  if (key && !key.success) throw badRequest(`Idempotency-Key: ${key.error.issues[0].message}`, "invalid_header");
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
    throw new ApiError(415, "Content-Type must be application/json", "unsupported_media_type");
  }
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new ApiError(413, `The body must be at most ${MAX_BODY_BYTES} bytes`, "body_too_large");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest("The body must be valid JSON", "invalid_json");
  }
  const result = context.services.surveyLimiter.run(context.clientIp ?? "unknown", () => context.services.surveys.submitResponse(params.storeId ?? "", params.channelSurveyId ?? "", body, key?.data), (r) => !r.replayed);
  return json(request, result.body, { status: 201, headers: result.replayed ? { "idempotent-replayed": "true" } : {} });
});

/** GET on the submission path: there is nothing to read here. */
export const loader = handle(() => {
  throw new ApiError(405, "Method not allowed: use POST", "method_not_allowed");
});

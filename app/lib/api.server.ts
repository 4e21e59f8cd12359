/**
 * Helpers for JSON resource routes: one error shape (decisions.md §1), zod parsing of query
 * strings, CORS, Cache-Control and ETag/304 for public GETs.
 */
import { hash } from "node:crypto";
import { z } from "zod";
import { ApiError, isApiError } from "../../server/contract/errors.ts";
import { CONTENT_SCOPES_HEADER, scopesHeaderValue } from "../../server/shared/content-scopes.ts";
import { withResponseBody } from "../../server/shared/response-body.ts";

export type CachePolicy = "public" | "private" | "no-store";

const CACHE_CONTROL: Record<CachePolicy, string> = {
  public: "public, max-age=60, stale-while-revalidate=300",
  private: "private, no-store",
  "no-store": "no-store",
};

/** Turn a zod error into a 400 ApiError naming the parameter and the rule. */
export function zodToApiError(error: z.ZodError, where = "parameter"): ApiError {
  const issue = error.issues[0];
  const name = issue?.path.length ? issue.path.join(".") : where;
  const message = issue?.message ?? "invalid value";
  return new ApiError(400, message.startsWith(name) ? message : `${name}: ${message}`, "invalid_parameter");
}

/** Parse the URL's query string with `schema`. @throws ApiError 400 naming the bad parameter. */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const result = schema.safeParse(params);
  if (!result.success) throw zodToApiError(result.error);
  return result.data;
}

/**
 * A JSON response with CORS for any origin; adds an ETag and answers 304 for public GETs. `scopes`: the
 * content scopes a public answer read (server/shared/content-scopes.ts), for the response cache, which
 * strips the header; without them the cache treats the answer as stale after any commit.
 */
export function json(
  request: Request, data: unknown, init: { status?: number; cache?: CachePolicy; headers?: HeadersInit; scopes?: readonly string[] } = {},
): Response {
  const body = JSON.stringify(data);
  const headers = new Headers(init.headers);
  if (init.scopes && init.cache === "public") headers.set(CONTENT_SCOPES_HEADER, scopesHeaderValue(init.scopes));
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("access-control-allow-origin", "*");
  headers.set("cache-control", CACHE_CONTROL[init.cache ?? "no-store"]);
  const status = init.status ?? 200;
  if (status === 200 && request.method === "GET" && init.cache === "public") {
    const etag = `"${hash("sha1", body, "base64url")}"`; // one-shot hash: no Hash object per response
    headers.set("etag", etag);
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  }
  const bytes = Buffer.from(body); // encoded once: the Response and the HTTP layer share these bytes
  return withResponseBody(new Response(bytes, { status, headers }), bytes);
}

/** The JSON error response for any thrown value; unknown errors are logged and answer 500 without details. */
export function errorResponse(error: unknown): Response {
  if (error instanceof Response) return error;
  const apiError = isApiError(error) ? error : error instanceof z.ZodError ? zodToApiError(error, "body") : null;
  if (!apiError) console.error("unhandled route error", error);
  const status = apiError?.status ?? 500;
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*", "cache-control": "no-store" };
  if (status === 401 && apiError?.code === "enterprise_unauthorized") {
    return new Response(null, { status: 401, headers: { "www-authenticate": 'Basic realm="enterprise"', "cache-control": "no-store" } });
  }
  const body = apiError ? apiError.toBody() : { error: { description: "Internal server error", code: "internal" } };
  return new Response(JSON.stringify(body), { status, headers });
}

/** Wrap a handler so any thrown error becomes the documented JSON error response. */
export function handle<A>(fn: (args: A) => Promise<Response> | Response): (args: A) => Promise<Response> {
  return async (args: A) => {
    try {
      return await fn(args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** The request's origin as the client sees it (for absolute media URLs). */
export function requestOrigin(request: Request): string {
  return new URL(request.url).origin;
}

/**
 * The Remix side of an operation declaration: a route module's `loader` and `action` are this thin
 * wrapper around its declared `operations` (server/api/operation.ts), so a request that reaches Remix
 * (not the fast path) is answered by the very same code.
 */
import { ifNoneMatchHits } from "../http/encoding.ts";
import { allowedMethods, errorResult, methodNotAllowed, operationFor, runOperation, type Operation, type OperationContext, type OperationResult } from "./operation.ts";

/** A Fetch Response for a result (304 when the request's `If-None-Match` holds the answer's ETag). */
export function toResponse(request: Request, result: OperationResult): Response {
  if (result.stream) return new Response(request.method === "HEAD" ? null : result.stream, { status: result.status, headers: result.headers });
  const { etag } = result.headers;
  if (result.status === 200 && etag && ifNoneMatchHits(request.headers.get("if-none-match") ?? undefined, etag)) {
    const { "content-type": _type, ...headers } = result.headers;
    return new Response(null, { status: 304, headers });
  }
  const empty = result.body.length === 0 && (result.status === 204 || result.status === 304 || result.status === 401);
  return new Response(empty ? null : (result.body as unknown as BodyInit), { status: result.status, headers: result.headers });
}

/** The operations a route module declared through `remixHandlers`, or undefined. */
export const declaredOperations = (module: { loader?: unknown }) => (module.loader as { operations?: readonly Operation[] } | undefined)?.operations;

type RemixArgs = { request: Request; params: Record<string, string | undefined>; context: unknown };

/**
 * The `loader` (and `action`: the same function) of a route module declaring `operations`: the
 * request's method picks the operation; a method none declares answers 405 with `Allow`. The function
 * carries the declarations as its `operations` property, which is how the operation table finds them
 * in the server build (Remix strips `loader`/`action` — and so the declarations and their server
 * imports — from browser bundles). Route module: `export const loader = remixHandlers([...]); export const action = loader;`
 */
export function remixHandlers(operations: readonly Operation[]) {
  const handler = async ({ request, params, context }: RemixArgs): Promise<Response> => {
    const op = operationFor(operations, request.method);
    const result = op ? await runOperation(op, request, params, context as OperationContext) : errorResult(methodNotAllowed(allowedMethods(operations)), request);
    return toResponse(request, result);
  };
  return Object.assign(handler, { operations });
}

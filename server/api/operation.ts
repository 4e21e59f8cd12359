/**
 * One declaration per API operation (decision 0010): method, zod schemas of path, query, headers and
 * body, the responses by status, auth, cache policy and the content scopes it read — declared once in
 * the Remix route module (`export const operations = [...]`). Everything else derives from it:
 * - the route module's Remix `loader`/`action` (`remixHandlers`),
 * - the fast path in front of Remix (server/http/app.ts dispatches through `operationTable`),
 * - the read worker threads (same table, same `runOperation`),
 * - the OpenAPI 3.1 documents (server/api/openapi.ts).
 *
 * `runOperation` turns a request into an `OperationResult` (status, headers, body bytes, content
 * scopes): a plain value the HTTP layer writes or caches, with no Response stream to read back.
 */
import { hash } from "node:crypto";
import { z } from "zod";
import { ApiError, isApiError, notFound } from "../contract/errors.ts";
import { readJsonBody, BODY_LIMITS } from "../shared/body.ts";
import { zodIssue } from "../shared/zod-issue.ts";
import { checkOkendoApiVersion, OKENDO_API_VERSION_HEADER } from "./okendo-version.ts";
import type { Services } from "../services.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/**
 * How an operation authenticates:
 * - `none`: public;
 * - `basic`: enterprise HTTP Basic (store ID : API key), checked before anything else (401 without body);
 * - `customer`: a loyalty customer token (`Authorization: Bearer`), required;
 * - `customer-optional`: public, tailored when a valid customer token is sent;
 * - `signature`: a webhook signed by its sender with a shared secret (an HMAC of the raw body in the header
 *   `signature.header` names); the handler checks it, as it needs the raw body (`body.read: "handler"`).
 */
export type AuthKind = "none" | "basic" | "customer" | "customer-optional" | "signature";
/** `Cache-Control` of a 200: `public` answers are shared (and kept by the response cache), the others never. */
export type CachePolicy = "public" | "private" | "no-store";
/** Which API document an operation belongs to, and the URL prefix its paths are relative to. */
export type ApiName = "storefront" | "enterprise" | "platform";

export const CACHE_CONTROL: Record<CachePolicy, string> = {
  public: "public, max-age=60, stale-while-revalidate=300",
  private: "private, no-store",
  "no-store": "no-store",
};

/** What every operation sees of the server: the services, the client address, the public origin of absolute URLs. */
export type OperationContext = {
  services: Services;
  /** The client's address (server/http/client-address.ts: the peer, or X-Forwarded-For from a trusted proxy). */
  clientIp: string;
  /** Origin for absolute URLs in answers (media): `PUBLIC_URL`, never the request's `Host` (server/http/public-origin.ts). */
  publicOrigin: string;
  /** Every operation the server answers (for the OpenAPI documents). */
  operations: readonly RoutedOperation[];
};

/** Loyalty customer row as `services.loyalty.authenticate` returns it. */
type Customer = NonNullable<Awaited<ReturnType<Services["loyalty"]["authenticate"]>>>;

export type HandlerInput<P, Q, H, B> = {
  request: Request;
  params: P;
  query: Q;
  headers: H;
  /** The parsed body (`body.read: "json"`), or undefined when the handler reads it itself. */
  body: B;
  context: OperationContext;
  /** `basic`: the authenticated store ID. */
  storeId: string;
  /** `customer`: the customer; `customer-optional`: the customer or null. */
  customer: Customer | null;
};

const REPLY = Symbol.for("chorus.reply");
/** A handler's answer with more than the data: status, headers, cache policy, content scopes. */
export type Reply = {
  [REPLY]: true;
  status: number;
  data: unknown;
  headers?: Record<string, string>;
  /** Overrides the declared cache policy (e.g. `private` when tailored to a customer). */
  cache?: CachePolicy;
  /** The content scopes a public answer read (server/shared/content-scopes.ts); none = stale after any commit. */
  scopes?: readonly string[];
  /**
   * A non-JSON body (e.g. CSV) and its content type. A ReadableStream body is streamed to the client
   * (never buffered, never cached, no ETag): for exports that must not hold all their rows in memory.
   */
  raw?: { body: string | Buffer | ReadableStream<Uint8Array>; contentType: string };
};

/** Build a Reply. */
export function reply(data: unknown, options: Omit<Reply, typeof REPLY | "data" | "status"> & { status?: number } = {}): Reply {
  return { [REPLY]: true, status: options.status ?? 200, data, ...options };
}
const isReply = (value: unknown): value is Reply => typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[REPLY] === true;

type AnyObject = z.ZodType<Record<string, unknown>>;
export type ResponseSpec = { description: string; schema?: z.ZodType; contentType?: string };

/** The declaration of one operation. */
export type OperationSpec<P extends AnyObject, Q extends AnyObject, H extends AnyObject, B extends z.ZodType> = {
  /** OpenAPI `operationId` (unique across both APIs). */
  id: string;
  method: HttpMethod;
  api: ApiName;
  summary: string;
  description?: string;
  tags?: readonly string[];
  auth: AuthKind;
  /** `auth: "signature"`: the header carrying the signature and how it is computed (documented as an API-key scheme). */
  signature?: { header: string; description: string };
  /** Cache policy of its 200 answers; default `no-store`. */
  cache?: CachePolicy;
  /** Computes without writing and without the client's identity: a read worker thread may compute it. */
  readsOnly?: boolean;
  params?: P;
  query?: Q;
  headers?: H;
  /**
   * The request body: its schema (documented; with `read: "json"` also parsed before the handler, 400 on
   * failure), content types, and the byte limit (default BODY_LIMITS.json). `read: "json-unchecked"`: read
   * and parsed as JSON, validated by the service (its errors name the item). `read: "handler"`: the
   * handler reads it (multipart uploads).
   */
  body?: { schema: B; read: "json" | "json-unchecked" | "handler"; contentTypes?: readonly string[]; maxBytes?: number; description?: string };
  /** Documented answers by status; 200/201 with the success schema, 4xx with the error body. */
  responses: Record<number, ResponseSpec>;
  /** Runs after auth and parsing, before the body is read (e.g. 404 for an unknown store first). */
  before?: (input: HandlerInput<z.output<P>, z.output<Q>, z.output<H>, undefined>) => void | Promise<void>;
  handler: (input: HandlerInput<z.output<P>, z.output<Q>, z.output<H>, z.output<B>>) => unknown | Promise<unknown>;
};
export type Operation = OperationSpec<AnyObject, AnyObject, AnyObject, z.ZodType>;
/** An operation with the route it is declared in (server/api/route-table.ts). */
export type RoutedOperation = Operation & { routeId: string; path: string };

/** The schema of an operation that declares no path parameters, query or headers. */
type NoFields = z.ZodObject<Record<never, never>>;

/** Declare an operation (identity, for type inference). */
export function defineOperation<P extends AnyObject = NoFields, Q extends AnyObject = NoFields, H extends AnyObject = NoFields, B extends z.ZodType = z.ZodUndefined>(
  spec: OperationSpec<P, Q, H, B>,
): Operation {
  return spec as unknown as Operation;
}

/** What `runOperation` produces: the bytes and headers to send, and the content scopes the answer read. */
export type OperationResult = {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Content scopes of a public 200 (null: unscoped, stale after any commit). */
  scopes: readonly string[] | null;
  /** A streamed body (`reply` with a ReadableStream `raw.body`): `body` is then empty; never cached. */
  stream?: ReadableStream<Uint8Array>;
};

const JSON_TYPE = "application/json; charset=utf-8";

/** Turn a zod error into a 400 ApiError naming the parameter and the rule. */
export function zodToApiError(error: z.ZodError, where = "parameter", code = "invalid_parameter"): ApiError {
  return new ApiError(400, zodIssue(error, where), code);
}

function parseWith<S extends z.ZodType>(schema: S | undefined, value: unknown, where: string, code?: string): z.output<S> | Record<string, never> {
  if (!schema) return {};
  const result = schema.safeParse(value);
  if (!result.success) throw zodToApiError(result.error, where, code);
  return result.data;
}

/** Logs an unexpected error; replaced by the HTTP layer's structured logger. */
let logUnexpected: (error: unknown) => void = (error) => console.error("unhandled route error", error);
/** Route unexpected errors (500s) to `log` (server/http/logging.ts). */
export function setUnexpectedErrorLog(log: (error: unknown) => void): void {
  logUnexpected = log;
}

/**
 * The JSON error result for any thrown value (docs/api.md, Errors): an ApiError with its status, a zod
 * error as 400, anything else a logged 500 without details. A 401 of enterprise Basic auth has no body
 * and a `WWW-Authenticate` header. 413 closes the connection (the rest of the body was not read); a 429 or
 * 503 carrying `retryAfterSeconds` sends `Retry-After`.
 */
export function errorResult(error: unknown, request?: Request): OperationResult {
  const apiError = isApiError(error) ? error : error instanceof z.ZodError ? zodToApiError(error, "body") : null;
  if (!apiError) logUnexpected(error);
  const status = apiError?.status ?? 500;
  const headers: Record<string, string> = { "access-control-allow-origin": "*", "cache-control": "no-store" };
  // A request whose body may be unread (a refused or half-read upload) must not reuse its connection.
  if (status === 413 || (request && request.method !== "GET" && request.method !== "HEAD" && status >= 400)) headers.connection = "close";
  if (status === 401 && apiError?.code === "enterprise_unauthorized") {
    return { status, headers: { ...headers, "www-authenticate": 'Basic realm="enterprise"' }, body: Buffer.alloc(0), scopes: null };
  }
  if (status === 405 && (apiError as ApiError & { allow?: string }).allow) headers.allow = (apiError as ApiError & { allow?: string }).allow!;
  // A rate limit, or a platform that could not create a reward, says when to try again (RFC 9110, section 10.2.3).
  const retryAfter = (apiError as (ApiError & { retryAfterSeconds?: number }) | null)?.retryAfterSeconds;
  if ((status === 429 || status === 503) && typeof retryAfter === "number" && Number.isFinite(retryAfter)) headers["retry-after"] = String(Math.max(1, Math.ceil(retryAfter)));
  const body = apiError ? apiError.toBody() : { error: { description: "Internal server error", code: "internal" } };
  return { status, headers: { ...headers, "content-type": JSON_TYPE }, body: Buffer.from(JSON.stringify(body)), scopes: null };
}

/** 405 for a method the path does not offer, with its `Allow` list (RFC 9110, section 15.5.6). */
export function methodNotAllowed(allow: readonly string[]): ApiError {
  const error = new ApiError(405, `Method not allowed: this endpoint accepts ${allow.join(", ")}`, "method_not_allowed") as ApiError & { allow?: string };
  error.allow = allow.join(", ");
  return error;
}

/** The methods a list of operations accepts (HEAD with GET), for `Allow`. */
export const allowedMethods = (operations: readonly Operation[]) => {
  const methods = operations.map((op) => op.method);
  if (methods.includes("GET")) methods.push("HEAD" as HttpMethod);
  return [...methods, "OPTIONS"];
};

/** The operation of `operations` that answers `method` (HEAD is answered by GET), or undefined. */
export const operationFor = (operations: readonly Operation[], method: string) => operations.find((op) => op.method === (method === "HEAD" ? "GET" : method));

async function authenticate(op: Operation, request: Request, context: OperationContext, params: Record<string, unknown>) {
  const authorization = request.headers.get("authorization");
  switch (op.auth) {
    case "basic":
      return { storeId: await context.services.apiKeys.authenticateBasic(authorization), customer: null };
    case "customer":
      return { storeId: "", customer: await context.services.loyalty.requireCustomer(String(params.storeId ?? ""), authorization) };
    case "customer-optional":
      return { storeId: "", customer: await context.services.loyalty.authenticate(String(params.storeId ?? ""), authorization) };
    default:
      return { storeId: "", customer: null };
  }
}

/**
 * The headers every operation of an API shares, checked before anything else (and, by server/http/app.ts, before the
 * response cache is asked, so a cached answer never hides the refusal): on storefront operations Okendo's
 * `okendo-api-version` (server/api/okendo-version.ts). `get` reads a header by its lower-case name.
 * @throws ApiError 400 `invalid_header`.
 */
export function checkCommonHeaders(op: Pick<Operation, "api">, get: (name: string) => string | null | undefined): void {
  if (op.api === "storefront") checkOkendoApiVersion(get(OKENDO_API_VERSION_HEADER) ?? null);
}

/**
 * Run `op` for `request` with the route's path `params`: authenticate, parse path, query and headers
 * (400 naming the bad one), read and parse the body when declared (413/415/400), call the handler and
 * serialise its answer. Never throws: errors become the JSON error result.
 */
export async function runOperation(op: Operation, request: Request, rawParams: Record<string, string | undefined>, context: OperationContext): Promise<OperationResult> {
  try {
    checkCommonHeaders(op, (name) => request.headers.get(name));
    const auth = await authenticate(op, request, context, rawParams);
    const params = parseWith(op.params, rawParams, "path");
    const query = parseWith(op.query, Object.fromEntries(new URL(request.url).searchParams), "parameter");
    const headers = parseWith(op.headers, Object.fromEntries(request.headers), "header", "invalid_header");
    const input = { request, params, query, headers, body: undefined, context, ...auth } as HandlerInput<never, never, never, never>;
    await op.before?.(input as never);
    if (op.body && op.body.read !== "handler") {
      const raw = await readJsonBody(request, op.body.maxBytes ?? BODY_LIMITS.json);
      (input as { body: unknown }).body = op.body.read === "json" ? parseWith(op.body.schema, raw, "body", "invalid_field") : raw;
    }
    const answer = await op.handler(input as never);
    const replied = isReply(answer) ? answer : reply(answer);
    // A service call passed to reply() without its await would serialise as `{}`: its result is awaited here.
    if (isThenable(replied.data)) (replied as { data: unknown }).data = await replied.data;
    return serialise(op, request, replied);
  } catch (error) {
    return errorResult(error, request);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function serialise(op: Operation, request: Request, answer: Reply): OperationResult {
  const cache = answer.cache ?? op.cache ?? "no-store";
  const rawBody = answer.raw?.body;
  const stream = rawBody instanceof ReadableStream ? rawBody : undefined;
  const body = stream ? Buffer.alloc(0) : rawBody !== undefined ? Buffer.from(rawBody as string | Buffer) : Buffer.from(JSON.stringify(answer.data));
  const headers: Record<string, string> = {
    "content-type": answer.raw?.contentType ?? JSON_TYPE,
    "access-control-allow-origin": "*",
    "cache-control": CACHE_CONTROL[cache],
    ...answer.headers,
  };
  const isPublic = cache === "public" && answer.status === 200 && (request.method === "GET" || request.method === "HEAD");
  if (stream) return { status: answer.status, headers, body, scopes: null, stream };
  if (isPublic) headers.etag = `"${hash("sha1", body, "base64url")}"`; // one-shot hash: no Hash object per response
  return { status: answer.status, headers, body, scopes: isPublic && answer.scopes ? answer.scopes : null };
}

/** A 404 for a path no operation answers (docs/api.md, Errors). */
export const unknownEndpoint = () => notFound("No such endpoint", "endpoint_not_found");

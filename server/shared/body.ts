/**
 * The one bounded request-body reader of every route (API, admin, uploads go through busboy with the
 * same rule): a body is read as a stream and reading stops at the limit, so no more than `maxBytes`
 * bytes of it are ever held in memory. A declared `Content-Length` over the limit is refused before a
 * single byte is read. Too large → ApiError 413 (`body_too_large`); the error answer carries
 * `Connection: close` (app/lib/api.server.ts `errorResponse`), so the unread rest of the body is
 * dropped with the connection instead of stalling the client's next request on it.
 */
import { ApiError, badRequest, isApiError } from "../contract/errors.ts";

/** Limits in bytes, one per kind of body. */
export const BODY_LIMITS = {
  /** A JSON API body (storefront writes, loyalty, surveys, enterprise). */
  json: 256 * 1024,
  /** An admin form (urlencoded or multipart without files). */
  form: 256 * 1024,
} as const;

/** 413 for a body (or part of one, `what`) over `maxBytes`. */
export const bodyTooLarge = (maxBytes: number, what = "The request body") =>
  new ApiError(413, `${what} is too large: at most ${maxBytes >= 1024 ? `${Math.floor(maxBytes / 1024)} KB` : `${maxBytes} bytes`}`, "body_too_large");

/**
 * Whether the request's declared `Content-Length` exceeds `maxBytes`. A missing or malformed header is
 * not "over": the streamed count still enforces the limit.
 */
export function declaredOver(headers: Headers, maxBytes: number): boolean {
  const declared = headers.get("content-length");
  return declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes;
}

/**
 * Read the whole body of `request`, at most `maxBytes` bytes.
 * @returns the bytes (empty when there is no body).
 * @throws ApiError 413 when the declared length or the streamed bytes exceed `maxBytes` (the stream is
 *   cancelled at that point; nothing past the limit is buffered).
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  if (declaredOver(request.headers, maxBytes)) {
    await request.body?.cancel().catch(() => {});
    throw bodyTooLarge(maxBytes);
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw bodyTooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (isApiError(error)) throw error;
    throw badRequest("The request body could not be read", "invalid_body");
  } finally {
    reader.releaseLock?.();
  }
  return Buffer.concat(chunks, size);
}

/** Whether the request says its body is JSON (`application/json`, any parameters, or `+json`). */
export const isJsonContentType = (headers: Headers) => /^application\/([\w.-]+\+)?json\b/i.test(headers.get("content-type") ?? "");

/**
 * Read a JSON body of at most `maxBytes` bytes.
 * @param options.requireJsonType answer 415 unless `Content-Type` is JSON (default true).
 * @returns the parsed value (any JSON type; validate it with the operation's schema).
 * @throws ApiError 415 (not JSON content type), 413 (too large), 400 `invalid_json` (empty or not JSON).
 */
export async function readJsonBody(request: Request, maxBytes: number = BODY_LIMITS.json, options: { requireJsonType?: boolean } = {}): Promise<unknown> {
  if ((options.requireJsonType ?? true) && !isJsonContentType(request.headers)) {
    await request.body?.cancel().catch(() => {});
    throw new ApiError(415, "Send the body as JSON with Content-Type: application/json", "unsupported_media_type");
  }
  const bytes = await readBodyBytes(request, maxBytes);
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw badRequest("The request body is not valid JSON", "invalid_json");
  }
}

/**
 * Read a form body (`application/x-www-form-urlencoded`, or `multipart/form-data` without files) of at
 * most `maxBytes` bytes, as FormData.
 * @throws ApiError 413 (too large), 415 (another content type), 400 (malformed multipart).
 */
export async function readFormBody(request: Request, maxBytes: number = BODY_LIMITS.form): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const urlencoded = type.startsWith("application/x-www-form-urlencoded");
  const multipart = type.startsWith("multipart/form-data");
  if (!urlencoded && !multipart) {
    await request.body?.cancel().catch(() => {});
    throw new ApiError(415, "Send the form as application/x-www-form-urlencoded or multipart/form-data", "unsupported_media_type");
  }
  const bytes = await readBodyBytes(request, maxBytes);
  if (urlencoded) {
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(bytes.toString("utf8"))) form.append(name, value);
    return form;
  }
  try {
    return await new Response(bytes as unknown as BodyInit, { headers: { "content-type": request.headers.get("content-type")! } }).formData();
  } catch {
    throw badRequest("The form body is malformed", "invalid_body");
  }
}

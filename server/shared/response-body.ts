/**
 * The body bytes of a Response made by our JSON helper, readable without consuming its stream.
 *
 * Reading a Fetch Response body back (`await response.arrayBuffer()`) goes through undici's stream
 * machinery: about 115 µs for a 17 KB page of reviews, as much as the page's JSON.stringify. The API
 * routes' `json()` (app/lib/api.server.ts) encodes its JSON once, builds the Response from those bytes
 * and attaches them; the HTTP layer (server/http/app.ts) caches or writes them directly and falls back
 * to the stream for any other Response. The key is a registered symbol (`Symbol.for`), so the copy of
 * this module bundled into the Remix build and the one the server imports agree on it.
 */
const RESPONSE_BODY = Symbol.for("chorus.responseBody");

/** Attach `bytes`, the exact body `response` was constructed with, and return `response`. */
export function withResponseBody(response: Response, bytes: Buffer): Response {
  Object.defineProperty(response, RESPONSE_BODY, { value: bytes });
  return response;
}

/** The bytes attached by `withResponseBody`, or undefined (then read the body stream as usual). */
export function responseBody(response: Response): Buffer | undefined {
  const bytes = (response as unknown as Record<symbol, unknown>)[RESPONSE_BODY];
  return Buffer.isBuffer(bytes) ? bytes : undefined;
}

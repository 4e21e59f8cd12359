/**
 * The text body of a Response made by our JSON helper, readable without consuming its stream.
 *
 * Reading a Fetch Response body back (`await response.arrayBuffer()`) goes through undici's stream
 * machinery: about 115 µs for a 17 KB page of reviews, as much as the page's JSON.stringify. The API
 * routes' `json()` (app/lib/api.server.ts) attaches the string it built; the HTTP layer
 * (server/http/app.ts) writes or caches that string directly and falls back to the stream for any other
 * Response. The key is a registered symbol (`Symbol.for`), so the copy of this module bundled into the
 * Remix build and the one the server imports agree on it.
 */
const RESPONSE_TEXT = Symbol.for("chorus.responseText");

/** Attach `text`, the exact body `response` was constructed with, and return `response`. */
export function withResponseText(response: Response, text: string): Response {
  Object.defineProperty(response, RESPONSE_TEXT, { value: text });
  return response;
}

/** The text attached by `withResponseText`, or undefined (then read the body stream as usual). */
export function responseText(response: Response): string | undefined {
  const text = (response as unknown as Record<symbol, unknown>)[RESPONSE_TEXT];
  return typeof text === "string" ? text : undefined;
}

/**
 * The widgets' HTTP client for the Chorus storefront API. Types come from the server contract
 * (`import type` only: widgets never import server code).
 */
import { nextTask } from "./tasks.ts";
import { ApiRequestError, parse } from "./api-error.ts";

export { ApiRequestError };

export type { ListReviewsResponse, ReviewAggregateResponse, ListReviewMediaResponse, ListQuestionsResponse, Review, ReviewMedia, Question, ReviewOrder } from "../../server/contract/storefront.ts";

/** Default API origin: the origin `chorus.js` was loaded from (set by the loader), else the page's. */
export function defaultApiBase(): string {
  return (window as Window & { __chorusBase?: string }).__chorusBase ?? location.origin;
}

/**
 * GET a JSON resource. @param url absolute URL. @throws ApiRequestError on a non-2xx answer,
 * TypeError on a network failure, AbortError when `signal` aborts.
 * Starting the request, parsing the answer and the caller's use of it (usually a render) run in three
 * separate tasks (issue 8: no long task; starting a fetch alone costs several ms of main thread).
 */
export async function getJson<T>(url: string, options: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<T> {
  await nextTask();
  const body = await parse<T>(await fetch(url, { signal: options.signal, headers: { accept: "application/json", ...options.headers } }));
  await nextTask();
  return body;
}

// Writes: only the larger widgets send any (./post.ts, in their chunk rather than the star badge's).
export { postJson } from "./post.ts";

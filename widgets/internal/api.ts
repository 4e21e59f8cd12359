/**
 * The widgets' HTTP client for the Chorus storefront API. Types come from the server contract
 * (`import type` only: widgets never import server code).
 */
import { nextTask } from "./tasks.ts";

export type { ListReviewsResponse, ReviewAggregateResponse, ListReviewMediaResponse, ListQuestionsResponse, Review, ReviewMedia, Question, ReviewOrder } from "../../server/contract/storefront.ts";

/** An API answer that is not 2xx; `description` is the server's human-readable message. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly description: string;
  readonly code?: string;
  constructor(status: number, description: string, code?: string) {
    super(description);
    this.status = status;
    this.description = description;
    this.code = code;
  }
}

/** Default API origin: the origin `chorus.js` was loaded from (set by the loader), else the page's. */
export function defaultApiBase(): string {
  return (window as Window & { __chorusBase?: string }).__chorusBase ?? location.origin;
}

async function parse<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* non-JSON body: handled below */
  }
  if (!res.ok) {
    const err = (body as { error?: { description?: string; code?: string } } | undefined)?.error;
    throw new ApiRequestError(res.status, err?.description ?? `Request failed (${res.status})`, err?.code);
  }
  return body as T;
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

/** POST JSON (or FormData, sent as multipart) and parse the JSON answer. @throws as getJson. */
export async function postJson<T>(url: string, body: unknown, options: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<T> {
  const isForm = typeof FormData !== "undefined" && body instanceof FormData;
  return parse<T>(
    await fetch(url, {
      method: "POST",
      signal: options.signal,
      headers: { accept: "application/json", ...(isForm ? {} : { "content-type": "application/json" }), ...options.headers },
      body: isForm ? (body as FormData) : JSON.stringify(body),
    }),
  );
}

/** A short, human sentence for any failure (shown in widgets' error states). */
export function describeError(error: unknown): string {
  if (error instanceof ApiRequestError) return error.description;
  if (error instanceof DOMException && error.name === "AbortError") return "The request was cancelled.";
  return "Could not reach the reviews service. Check your connection and try again.";
}

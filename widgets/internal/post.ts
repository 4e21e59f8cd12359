/**
 * The widgets' writes (reviews, questions, votes, loyalty), apart from ./api.ts so that the star badge's page,
 * which sends none, does not load them (widgets/vite.config.ts: "ui" chunk).
 */
import { parse } from "./api-error.ts";

/** POST (or `method`, e.g. PATCH) JSON (or FormData, sent as multipart) and parse the JSON answer. @throws as getJson. */
export async function postJson<T>(url: string, body: unknown, options: { signal?: AbortSignal; headers?: Record<string, string>; method?: "POST" | "PATCH" } = {}): Promise<T> {
  const isForm = typeof FormData !== "undefined" && body instanceof FormData;
  return parse<T>(
    await fetch(url, {
      method: options.method ?? "POST",
      signal: options.signal,
      headers: { accept: "application/json", ...(isForm ? {} : { "content-type": "application/json" }), ...options.headers },
      body: isForm ? (body as FormData) : JSON.stringify(body),
    }),
  );
}

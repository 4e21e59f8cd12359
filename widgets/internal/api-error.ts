/** Answers of the storefront API that are not 2xx, and reading a JSON answer (./api.ts for reads, ./post.ts for writes). */

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

/** The JSON body of `res`. @throws ApiRequestError when `res` is not 2xx (the server's description, else "Request failed (status)"). */
export async function parse<T>(res: Response): Promise<T> {
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

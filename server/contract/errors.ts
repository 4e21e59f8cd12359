/**
 * The one error shape of every API (docs/api.md, Errors): `{"error":{"description","code"?}}`.
 * `ApiError` carries an HTTP status; route wrappers turn it into a JSON response.
 */
export type ErrorBody = { error: { description: string; code?: string } };

const BRAND = Symbol.for("chorus.ApiError");

export class ApiError extends Error {
  readonly [BRAND] = true;
  readonly status: number;
  readonly code?: string;
  /** @param status an HTTP status, 4xx for client errors. @param description human-readable, safe to show. */
  constructor(status: number, description: string, code?: string) {
    super(description);
    this.status = status;
    this.code = code;
  }
  toBody(): ErrorBody {
    return { error: { description: this.message, ...(this.code ? { code: this.code } : {}) } };
  }
}

export const badRequest = (description: string, code = "invalid_parameter") => new ApiError(400, description, code);
export const notFound = (description = "Not found", code = "not_found") => new ApiError(404, description, code);

/**
 * Whether `value` is an ApiError. Use this, not `instanceof`: server modules run both natively and
 * bundled into the Remix build, so two ApiError classes exist at run time; the brand is shared.
 */
export function isApiError(value: unknown): value is ApiError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * Keyset cursors for `lastEvaluated` (docs/api.md, Paging): a JSON object
 * `{"k":[...sort key values...],"s":"<signature>"}`, URL-encoded in `nextUrl`.
 *
 * The signature is an HMAC-SHA256 (truncated to 128 bits) over the listing's context string
 * (which names the store, scope and order) and the key values, with the installation secret.
 * So a cursor edited by hand, or taken from another listing (another survey, scope or order),
 * fails verification and answers 400: it is never silently reinterpreted.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { badRequest } from "../contract/errors.ts";

export type CursorKey = (string | number)[];

function sign(secret: string, context: string, key: CursorKey): string {
  return createHmac("sha256", secret).update(context).update("\u0000").update(JSON.stringify(key)).digest("base64url").slice(0, 22);
}

/** Encode a cursor for `context` (e.g. `reviews|<store>|product:1078|date desc`). Returns the JSON text (not yet URL-encoded). */
export function encodeCursor(secret: string, context: string, key: CursorKey): string {
  return JSON.stringify({ k: key, s: sign(secret, context, key) });
}

/**
 * Decode and verify a `lastEvaluated` value.
 * @param shape the expected type of each key element ("string" | "number"), in order.
 * @throws ApiError 400 when the value is not JSON, not of the shape, or not signed for this context.
 */
export function decodeCursor(secret: string, context: string, raw: string, shape: readonly ("string" | "number")[]): CursorKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest("lastEvaluated must be a URL-encoded JSON object from a nextUrl", "invalid_cursor");
  }
  const obj = parsed as { k?: unknown; s?: unknown };
  const valid =
    typeof parsed === "object" &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    Array.isArray(obj.k) &&
    typeof obj.s === "string" &&
    obj.k.length === shape.length &&
    obj.k.every((v, i) => typeof v === shape[i] && (typeof v !== "number" || Number.isFinite(v)));
  if (!valid) throw badRequest("lastEvaluated is not a cursor of this listing", "invalid_cursor");
  const key = obj.k as CursorKey;
  const expected = Buffer.from(sign(secret, context, key));
  const given = Buffer.from(obj.s as string);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw badRequest("lastEvaluated was altered or belongs to another listing", "invalid_cursor");
  }
  return key;
}

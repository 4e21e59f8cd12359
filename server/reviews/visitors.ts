/**
 * Anonymous visitors for helpful votes (decisions.md §3): a signed visitor cookie set by the server,
 * or a client-supplied visitor ID. Either way only an HMAC of (store, visitor) is stored, keyed
 * with the installation's visitor secret, so raw IDs never reach the database and one visitor ID
 * means different rows in different stores.
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";

export const VISITOR_COOKIE = "chorus_visitor";
/** One year, in seconds. */
export const VISITOR_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

const mac = (secret: string, value: string) => createHmac("sha256", secret).update(value).digest("base64url");

/** A new signed cookie value `<uuid>.<hmac>`. */
export function newVisitorCookie(secret: string): { visitorId: string; value: string } {
  const visitorId = randomUUID();
  return { visitorId, value: `${visitorId}.${mac(secret, `cookie:${visitorId}`)}` };
}

/** The visitor ID of a signed cookie value, or null when absent, malformed or tampered (constant-time check). */
export function verifyVisitorCookie(secret: string, value: string | null | undefined): string | null {
  if (!value) return null;
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const id = value.slice(0, dot);
  const expected = Buffer.from(mac(secret, `cookie:${id}`));
  const given = Buffer.from(value.slice(dot + 1));
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
}

/** The stored key of a visitor in a store: `c:` (cookie) or `v:` (client-supplied) + HMAC. */
export function visitorHash(secret: string, storeId: string, source: "cookie" | "client", visitorId: string): string {
  return `${source === "cookie" ? "c" : "v"}:${mac(secret, `${storeId}\n${source}\n${visitorId}`)}`;
}

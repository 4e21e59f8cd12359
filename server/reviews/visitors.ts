/**
 * Anonymous visitors for helpful votes (docs/writes.md, Helpful votes): a signed visitor value `<uuid>.<HMAC>` issued
 * by the server, held either as the `chorus_visitor` cookie or by the widget (returned as `visitorId`,
 * sent back in the vote body). A client-supplied ID is accepted only when it carries our signature
 * (issue #19 finding 5): an unsigned or tampered one is a new visitor. Only an HMAC of (store, visitor)
 * is stored, keyed with the installation's visitor secret, so raw IDs never reach the database and one
 * visitor ID means different rows in different stores. The client address of a vote is stored the same
 * way (`addressHash`), for the per-address vote limits.
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { addressKey } from "./submission-limits.ts";

export const VISITOR_COOKIE = "chorus_visitor";
/** One year, in seconds. */
export const VISITOR_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

const mac = (secret: string, value: string) => createHmac("sha256", secret).update(value).digest("base64url");

/** A new signed visitor value `<uuid>.<hmac>` (the cookie value, and the `visitorId` the widget keeps). */
export function newVisitorCookie(secret: string): { visitorId: string; value: string } {
  const visitorId = randomUUID();
  return { visitorId, value: `${visitorId}.${mac(secret, `cookie:${visitorId}`)}` };
}

/** The visitor ID of a signed visitor value (cookie or `visitorId`), or null when absent, malformed, unsigned or tampered (constant-time check). */
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

/** The stored key of a client address in a store: `a:` + HMAC of the address's `addressKey` (IPv6 by /64). */
export function addressHash(secret: string, storeId: string, clientIp: string): string {
  return `a:${mac(secret, `${storeId}\naddress\n${addressKey(clientIp)}`)}`;
}

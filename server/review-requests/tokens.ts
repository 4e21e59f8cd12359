/**
 * Link tokens of review-request e-mails (docs/review-requests.md "Links"): 32 random bytes, base64url
 * (43 characters), sent only in the e-mail; the database keeps their SHA-256 hash, so a copy of the
 * database opens no review page. Random rather than signed: a token can then be looked up, expired and
 * used up per product, and nothing about the order is readable from it.
 */
import { createHash, randomBytes } from "node:crypto";

/** Review links work this long after their message was sent (ms): 60 days. */
export const REVIEW_LINK_TTL_MS = 60 * 86_400_000;
/** Unsubscribe links work this long (ms): 2 years (unsubscribing must keep working). */
export const UNSUBSCRIBE_LINK_TTL_MS = 730 * 86_400_000;

/** The shape of a token in a URL. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new random token. */
export const newToken = (): string => randomBytes(32).toString("base64url");

/** The stored form of a token: hex SHA-256. */
export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");

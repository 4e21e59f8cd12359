/**
 * Tokens of account links (team invitations, password resets): 256 random bits as 43 base64url
 * characters in the link, stored only as their SHA-256 hash (hex), so a copy of the database opens no
 * account. A link is looked up by the hash of what it carries; a string of another shape is no token.
 */
import { createHash, randomBytes } from "node:crypto";

/** The shape of a token in a link: 43 base64url characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new random token (32 bytes, base64url). */
export const newAccountToken = (): string => randomBytes(32).toString("base64url");

/** The hex SHA-256 hash a token is stored and looked up as. */
export const accountTokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

/** Whether `value` has a token's shape (checked before any lookup; anything else is an invalid link). */
export const isAccountToken = (value: unknown): value is string => typeof value === "string" && TOKEN_PATTERN.test(value);

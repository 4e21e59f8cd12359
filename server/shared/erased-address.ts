/**
 * The key under which a store keeps an erased shopper's unsubscribe from review requests (docs/privacy.md "What is
 * covered"): `sha256:` and the hex SHA-256 of the trimmed, lower-cased address. The erasure replaces the address with
 * it, so the store still sends that address no mail while its bytes are gone from the database.
 */
import { createHash } from "node:crypto";

/** `sha256:<64 hex>` of `email` trimmed and lower-cased. */
export const erasedAddressKey = (email: string): string => `sha256:${createHash("sha256").update(email.trim().toLowerCase()).digest("hex")}`;

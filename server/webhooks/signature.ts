/**
 * Signing of webhook deliveries (Stripe's convention, docs/webhooks.md): the header
 * `Chorus-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the secret>`.
 * The key is the whole secret string as UTF-8 (`whsec_…`). Receivers verify it with the snippet in
 * docs/webhooks.md (constant-time compare, 5-minute tolerance on `t`).
 */
import { createHmac, randomBytes } from "node:crypto";

/** The header carrying the signature. */
export const SIGNATURE_HEADER = "Chorus-Signature";

/** A new signing secret: `whsec_` and 32 random bytes, base64url (256 bits). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString("base64url")}`;

/** How many characters of a secret are kept in clear for display (`whsec_` and 4 more). */
export const SECRET_PREFIX_LENGTH = 10;

/** The `Chorus-Signature` value for `body` sent at `timestampSeconds` (unix seconds). */
export function signatureHeader(secret: string, timestampSeconds: number, body: string | Buffer): string {
  const hmac = createHmac("sha256", secret).update(`${timestampSeconds}.`).update(body).digest("hex");
  return `t=${timestampSeconds},v1=${hmac}`;
}

/**
 * Encryption of platform app secrets at rest (AES-256-GCM, node:crypto). A webhook signature is checked
 * with the secret itself, so it cannot be stored as a hash; it is encrypted under an installation key
 * (`platform_secret_key` in app_settings, 256 random bits, created on first use). This keeps the secret out
 * of table dumps, exports and admin screens; someone holding the whole database file holds the key too.
 * Format: base64url(iv[12] | tag[16] | ciphertext).
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** Seal and open secrets with `key` (32 bytes, base64url). */
export function secretBox(keyBase64url: string) {
  const key = Buffer.from(keyBase64url, "base64url");
  if (key.length !== 32) throw new Error("secretBox: the key must be 32 bytes");
  return {
    /** Encrypt `plain` (UTF-8). */
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    },
    /** Decrypt a sealed value. @throws when it was not sealed with this key or was altered. */
    open(sealed: string): string {
      const raw = Buffer.from(sealed, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    },
  };
}
export type SecretBox = ReturnType<typeof secretBox>;

/**
 * Enterprise API keys and HTTP Basic authentication (docs/api.md, Authentication).
 * Username = the store's subscriber ID, password = an API key. Keys are stored as SHA-256 hashes and
 * compared in constant time; a missing, malformed or wrong credential is a 401 with no body.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { ApiError } from "../contract/errors.ts";
import { all, run, sql, type Db } from "../db/database.ts";

export type ApiKeyInfo = { apiKeyId: string; storeId: string; name: string; keyPrefix: string; dateCreated: string; dateRevoked?: string; dateLastUsed?: string };
type Row = { api_key_id: string; store_id: string; name: string; key_hash: string; key_prefix: string; created_ms: number; revoked_ms: number | null; last_used_ms: number | null };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const toInfo = (r: Row): ApiKeyInfo => ({
  apiKeyId: r.api_key_id,
  storeId: r.store_id,
  name: r.name,
  keyPrefix: r.key_prefix,
  dateCreated: new Date(r.created_ms).toISOString(),
  ...(r.revoked_ms ? { dateRevoked: new Date(r.revoked_ms).toISOString() } : {}),
  ...(r.last_used_ms ? { dateLastUsed: new Date(r.last_used_ms).toISOString() } : {}),
});

/** The 401 of the enterprise interface: no body, `WWW-Authenticate: Basic realm="enterprise"` (see app/lib/api.server.ts). */
export const enterpriseUnauthorized = () => new ApiError(401, "Credentials missing or incorrect", "enterprise_unauthorized");

/** How often, at most, a key's `last_used_ms` is written (ms): every commit invalidates the response cache. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/** Create the API keys module over `db`. `now` (epoch ms) is the clock of `last_used_ms`. */
export function apiKeys(db: Db, now: () => number = () => Date.now()) {
  /** When this process last wrote each key's `last_used_ms` (api_key_id → epoch ms). */
  const writtenAt = new Map<string, number>();
  /** Authorization headers that passed (their SHA-256) → the key they name, for answers served from the cache. */
  const keyOfHeader = new Map<string, string>();

  /**
   * Record a use of key `apiKeyId`: written at most once per LAST_USED_WRITE_INTERVAL_MS (a conditional update,
   * so nodes writing at once write it once). @returns a promise of the write (or of nothing when skipped).
   */
  async function markUsed(apiKeyId: string): Promise<void> {
    const at = now();
    if (at - (writtenAt.get(apiKeyId) ?? -Infinity) < LAST_USED_WRITE_INTERVAL_MS) return;
    writtenAt.set(apiKeyId, at);
    await run(db, sql`UPDATE api_keys SET last_used_ms = ${at} WHERE api_key_id = ${apiKeyId} AND (last_used_ms IS NULL OR last_used_ms < ${at - LAST_USED_WRITE_INTERVAL_MS})`);
  }

  return {
    /**
     * Issue a key for a store. `key` may be given (the DEMO_API_KEY start-up rule); otherwise a random
     * 256-bit key `chk_<base64url>` is made. @returns the key in clear, to be shown once, and its info.
     */
    async create(storeId: string, name: string, key?: string): Promise<{ key: string; info: ApiKeyInfo }> {
      const clear = key ?? `chk_${randomBytes(32).toString("base64url")}`;
      const row: Row = { api_key_id: randomUUID(), store_id: storeId, name, key_hash: sha256(clear), key_prefix: clear.slice(0, 8), created_ms: Date.now(), revoked_ms: null, last_used_ms: null };
      await run(
        db,
        sql`INSERT INTO api_keys (api_key_id, store_id, name, key_hash, key_prefix, created_ms)
        VALUES (${row.api_key_id}, ${row.store_id}, ${row.name}, ${row.key_hash}, ${row.key_prefix}, ${row.created_ms})`,
      );
      return { key: clear, info: toInfo(row) };
    },
    /** Keys of a store, newest first (never the key itself). */
    async list(storeId: string): Promise<ApiKeyInfo[]> {
      return (await all<Row>(db, sql`SELECT * FROM api_keys WHERE store_id = ${storeId} ORDER BY created_ms DESC`)).map(toInfo);
    },
    /** Revoke a key of the store. @returns false when the store has no such active key. */
    async revoke(storeId: string, apiKeyId: string): Promise<boolean> {
      return (await run(db, sql`UPDATE api_keys SET revoked_ms = ${Date.now()} WHERE store_id = ${storeId} AND api_key_id = ${apiKeyId} AND revoked_ms IS NULL`)).changes === 1;
    },
    /**
     * Check an `Authorization: Basic ...` header. @returns the authenticated store ID.
     * @throws ApiError 401 (`enterprise_unauthorized`) when missing, malformed, unknown or revoked.
     */
    async authenticateBasic(authorization: string | null): Promise<string> {
      const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(authorization?.trim() ?? "");
      if (!match) throw enterpriseUnauthorized();
      const decoded = Buffer.from(match[1], "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon <= 0) throw enterpriseUnauthorized();
      const storeId = decoded.slice(0, colon);
      const given = Buffer.from(sha256(decoded.slice(colon + 1)), "hex");
      const rows = await all<Pick<Row, "key_hash" | "api_key_id">>(db, sql`SELECT key_hash, api_key_id FROM api_keys WHERE store_id = ${storeId} AND revoked_ms IS NULL`);
      // Compare against every active key of the store in constant time (no early exit on a match).
      let matched: string | null = null;
      for (const r of rows) if (timingSafeEqual(Buffer.from(r.key_hash, "hex"), given)) matched = r.api_key_id;
      if (!matched) throw enterpriseUnauthorized();
      if (keyOfHeader.size >= 10_000) keyOfHeader.clear(); // bounded: headers of keys that were since revoked or rotated
      keyOfHeader.set(sha256(authorization!), matched);
      await markUsed(matched);
      return storeId;
    },
    /**
     * Record a use of the credentials in `authorization` by a request answered from the response cache
     * (the route, and so `authenticateBasic`, did not run). Only headers that passed `authenticateBasic`
     * in this process count; any other header is ignored.
     */
    async noteCachedUse(authorization: string): Promise<void> {
      const apiKeyId = keyOfHeader.get(sha256(authorization));
      if (apiKeyId) await markUsed(apiKeyId);
    },
  };
}
export type ApiKeys = ReturnType<typeof apiKeys>;

/**
 * Shop-platform data (SQL): the store's connection (shop domain, sealed app secret), the deliveries of
 * webhooks already applied, and product upserts from the platform's catalogue (docs/platforms.md).
 */
import { one, run, sql, type Db } from "../db/database.ts";

export type ConnectionRow = {
  store_id: string;
  shop_domain: string | null;
  secret_encrypted: string | null;
  secret_set_ms: number | null;
  updated_ms: number;
  /** The sealed Shopify Admin API access token (migration 101). */
  admin_token_encrypted: string | null;
  admin_token_set_ms: number | null;
  /** WooCommerce (migration 110): the normalised site address and the sealed REST key and webhook secret. */
  woo_site_url: string | null;
  woo_consumer_key_encrypted: string | null;
  woo_consumer_secret_encrypted: string | null;
  woo_webhook_secret_encrypted: string | null;
  woo_set_ms: number | null;
};
/** A WooCommerce connection change: undefined keeps a field, null removes it. */
export type WooConnectionPatch = { siteUrl?: string | null; consumerKeyEncrypted?: string | null; consumerSecretEncrypted?: string | null; webhookSecretEncrypted?: string | null };
export type CatalogueProduct = { productId: string; name: string; url: string | null; imageUrl: string | null };

/** Create the platform data module over `db`. Every function returns a promise. */
export function platformsRepo(db: Db) {
  const byStore = (storeId: string) => one<ConnectionRow>(db, sql`SELECT * FROM platform_connections WHERE store_id = ${storeId}`);
  return {
    connection: (storeId: string): Promise<ConnectionRow | undefined> => byStore(storeId),
    /** The connection of a shop domain (lower-case), or undefined. */
    connectionOfShop: (shopDomain: string): Promise<ConnectionRow | undefined> => one<ConnectionRow>(db, sql`SELECT * FROM platform_connections WHERE shop_domain = ${shopDomain}`),
    /**
     * Set the connection's fields (undefined keeps a field; `secretEncrypted` or `adminTokenEncrypted` null removes it).
     * A shop domain removes a WooCommerce site address (one platform per store).
     * @throws a unique violation (`isUniqueViolation`) when another store has the shop domain.
     */
    async saveConnection(storeId: string, patch: { shopDomain?: string | null; secretEncrypted?: string | null; adminTokenEncrypted?: string | null }, nowMs: number): Promise<void> {
      const current = await byStore(storeId);
      const shop = patch.shopDomain === undefined ? (current?.shop_domain ?? null) : patch.shopDomain;
      const secret = patch.secretEncrypted === undefined ? (current?.secret_encrypted ?? null) : patch.secretEncrypted;
      const setMs = patch.secretEncrypted === undefined ? (current?.secret_set_ms ?? null) : patch.secretEncrypted === null ? null : nowMs;
      const token = patch.adminTokenEncrypted === undefined ? (current?.admin_token_encrypted ?? null) : patch.adminTokenEncrypted;
      const tokenMs = patch.adminTokenEncrypted === undefined ? (current?.admin_token_set_ms ?? null) : patch.adminTokenEncrypted === null ? null : nowMs;
      await run(
        db,
        sql`INSERT INTO platform_connections (store_id, shop_domain, secret_encrypted, secret_set_ms, admin_token_encrypted, admin_token_set_ms, updated_ms)
         VALUES (${storeId}, ${shop}, ${secret}, ${setMs}, ${token}, ${tokenMs}, ${nowMs})
         ON CONFLICT (store_id) DO UPDATE SET shop_domain = excluded.shop_domain, secret_encrypted = excluded.secret_encrypted,
           secret_set_ms = excluded.secret_set_ms, admin_token_encrypted = excluded.admin_token_encrypted, admin_token_set_ms = excluded.admin_token_set_ms, updated_ms = excluded.updated_ms,
           woo_site_url = CASE WHEN excluded.shop_domain IS NOT NULL THEN NULL ELSE platform_connections.woo_site_url END`,
      );
    },
    /** The connection of a WooCommerce site (its normalised address), or undefined. */
    connectionOfSite: (siteUrl: string): Promise<ConnectionRow | undefined> => one<ConnectionRow>(db, sql`SELECT * FROM platform_connections WHERE woo_site_url = ${siteUrl}`),
    /**
     * Set the WooCommerce fields of the connection (caller's transaction). A site address replaces the Shopify shop
     * domain (one platform per store). @throws a unique violation when another store has the site.
     */
    async saveWooConnection(storeId: string, patch: WooConnectionPatch, nowMs: number): Promise<void> {
      await run(db, sql`INSERT INTO platform_connections (store_id, updated_ms) VALUES (${storeId}, ${nowMs}) ON CONFLICT (store_id) DO NOTHING`);
      const keep = (v: string | null | undefined) => (v === undefined ? 1 : 0);
      await run(
        db,
        sql`UPDATE platform_connections SET
          woo_site_url = CASE WHEN ${keep(patch.siteUrl)} = 1 THEN woo_site_url ELSE CAST(${patch.siteUrl ?? null} AS text) END,
          shop_domain = CASE WHEN ${patch.siteUrl ? 1 : 0} = 1 THEN NULL ELSE shop_domain END,
          woo_consumer_key_encrypted = CASE WHEN ${keep(patch.consumerKeyEncrypted)} = 1 THEN woo_consumer_key_encrypted ELSE CAST(${patch.consumerKeyEncrypted ?? null} AS text) END,
          woo_consumer_secret_encrypted = CASE WHEN ${keep(patch.consumerSecretEncrypted)} = 1 THEN woo_consumer_secret_encrypted ELSE CAST(${patch.consumerSecretEncrypted ?? null} AS text) END,
          woo_webhook_secret_encrypted = CASE WHEN ${keep(patch.webhookSecretEncrypted)} = 1 THEN woo_webhook_secret_encrypted ELSE CAST(${patch.webhookSecretEncrypted ?? null} AS text) END,
          woo_set_ms = ${nowMs}, updated_ms = ${nowMs}
        WHERE store_id = ${storeId}`,
      );
    },
    /** Whether a WooCommerce body with this digest (its HMAC) was applied before under any delivery ID. */
    digestSeen: async (storeId: string, digest: string): Promise<boolean> =>
      (await one(db, sql`SELECT 1 AS seen FROM platform_webhooks WHERE store_id = ${storeId} AND body_digest = ${digest}`)) !== undefined,
    /**
     * Record a WooCommerce delivery with its body digest (caller's transaction). @returns false when the delivery ID or
     * the digest was recorded before (unique keys with `ON CONFLICT DO NOTHING`: a concurrent copy waits for the first's commit).
     */
    recordWithDigest: async (storeId: string, webhookId: string, digest: string, topic: string, nowMs: number): Promise<boolean> =>
      (
        await run(
          db,
          sql`INSERT INTO platform_webhooks (store_id, webhook_id, topic, outcome, received_ms, body_digest) VALUES (${storeId}, ${webhookId}, ${topic}, 'applied', ${nowMs}, ${digest})
        ON CONFLICT DO NOTHING`,
        )
      ).changes === 1,
    /** Whether the delivery was already applied (or ignored). */
    seen: async (storeId: string, webhookId: string): Promise<boolean> =>
      (await one(db, sql`SELECT outcome FROM platform_webhooks WHERE store_id = ${storeId} AND webhook_id = ${webhookId}`)) !== undefined,
    /**
     * Record a delivery (caller's transaction). @returns false when it was recorded before (a concurrent duplicate:
     * the unique (store, webhook) key with `ON CONFLICT DO NOTHING`; a concurrent uncommitted one makes this wait for its commit).
     */
    record: async (storeId: string, webhookId: string, topic: string, outcome: "applied" | "ignored", nowMs: number): Promise<boolean> =>
      (
        await run(
          db,
          sql`INSERT INTO platform_webhooks (store_id, webhook_id, topic, outcome, received_ms) VALUES (${storeId}, ${webhookId}, ${topic}, ${outcome}, ${nowMs})
        ON CONFLICT (store_id, webhook_id) DO NOTHING`,
        )
      ).changes === 1,
    /** Change a recorded delivery's outcome (caller's transaction, after `record` claimed it). */
    async setOutcome(storeId: string, webhookId: string, outcome: "applied" | "ignored"): Promise<void> {
      await run(db, sql`UPDATE platform_webhooks SET outcome = ${outcome} WHERE store_id = ${storeId} AND webhook_id = ${webhookId}`);
    },
    /** Insert or update a product's name, URL and image from the platform; its review group is kept. */
    async upsertProduct(storeId: string, p: CatalogueProduct): Promise<void> {
      await run(
        db,
        sql`INSERT INTO products (store_id, product_id, name, url, image_url) VALUES (${storeId}, ${p.productId}, ${p.name}, ${p.url}, ${p.imageUrl})
         ON CONFLICT (store_id, product_id) DO UPDATE SET name = excluded.name, url = excluded.url, image_url = excluded.image_url`,
      );
    },
    /** Insert a product named from an order line when it is not known yet (a later product webhook names it properly). */
    async ensureProduct(storeId: string, productId: string, name: string): Promise<void> {
      await run(db, sql`INSERT INTO products (store_id, product_id, name) VALUES (${storeId}, ${productId}, ${name}) ON CONFLICT (store_id, product_id) DO NOTHING`);
    },
    /** A product deleted on the platform: it keeps its reviews and name, but no longer links to a page. */
    async unlistProduct(storeId: string, productId: string): Promise<void> {
      await run(db, sql`UPDATE products SET url = NULL WHERE store_id = ${storeId} AND product_id = ${productId}`);
    },
  };
}
export type PlatformsRepo = ReturnType<typeof platformsRepo>;

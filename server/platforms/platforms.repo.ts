/**
 * Shop-platform data (SQL): the store's connection (shop domain, sealed app secret), the deliveries of
 * webhooks already applied, and product upserts from the platform's catalogue (docs/platforms.md).
 */
import type { Db } from "../db/database.ts";

export type ConnectionRow = { store_id: string; shop_domain: string | null; secret_encrypted: string | null; secret_set_ms: number | null; updated_ms: number };
export type CatalogueProduct = { productId: string; name: string; url: string | null; imageUrl: string | null };

/** Create the platform data module over `db`. */
export function platformsRepo(db: Db) {
  const byStore = db.prepare<[string], ConnectionRow>("SELECT * FROM platform_connections WHERE store_id = ?");
  const byShop = db.prepare<[string], ConnectionRow>("SELECT * FROM platform_connections WHERE shop_domain = ?");
  const seen = db.prepare<[string, string], { outcome: string }>("SELECT outcome FROM platform_webhooks WHERE store_id = ? AND webhook_id = ?");
  const record = db.prepare(
    "INSERT INTO platform_webhooks (store_id, webhook_id, topic, outcome, received_ms) VALUES (?, ?, ?, ?, ?) ON CONFLICT (store_id, webhook_id) DO NOTHING",
  );
  const upsertProduct = db.prepare(
    `INSERT INTO products (store_id, product_id, name, url, image_url) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (store_id, product_id) DO UPDATE SET name = excluded.name, url = excluded.url, image_url = excluded.image_url`,
  );
  const ensureProduct = db.prepare(
    "INSERT INTO products (store_id, product_id, name) VALUES (?, ?, ?) ON CONFLICT (store_id, product_id) DO NOTHING",
  );
  const unlist = db.prepare("UPDATE products SET url = NULL WHERE store_id = ? AND product_id = ?");
  return {
    connection: (storeId: string): ConnectionRow | undefined => byStore.get(storeId),
    /** The connection of a shop domain (lower-case), or undefined. */
    connectionOfShop: (shopDomain: string): ConnectionRow | undefined => byShop.get(shopDomain),
    /**
     * Set the connection's fields (undefined keeps a field; `secretEncrypted` null removes the secret).
     * @throws SqliteError UNIQUE when another store has the shop domain.
     */
    saveConnection(storeId: string, patch: { shopDomain?: string | null; secretEncrypted?: string | null }, nowMs: number): void {
      const current = byStore.get(storeId);
      const shop = patch.shopDomain === undefined ? (current?.shop_domain ?? null) : patch.shopDomain;
      const secret = patch.secretEncrypted === undefined ? (current?.secret_encrypted ?? null) : patch.secretEncrypted;
      const setMs = patch.secretEncrypted === undefined ? (current?.secret_set_ms ?? null) : patch.secretEncrypted === null ? null : nowMs;
      db.prepare(
        `INSERT INTO platform_connections (store_id, shop_domain, secret_encrypted, secret_set_ms, updated_ms) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (store_id) DO UPDATE SET shop_domain = excluded.shop_domain, secret_encrypted = excluded.secret_encrypted,
           secret_set_ms = excluded.secret_set_ms, updated_ms = excluded.updated_ms`,
      ).run(storeId, shop, secret, setMs, nowMs);
    },
    /** Whether the delivery was already applied (or ignored). */
    seen: (storeId: string, webhookId: string): boolean => seen.get(storeId, webhookId) !== undefined,
    /** Record a delivery (caller's transaction). @returns false when it was recorded before (a concurrent duplicate). */
    record: (storeId: string, webhookId: string, topic: string, outcome: "applied" | "ignored", nowMs: number): boolean =>
      record.run(storeId, webhookId, topic, outcome, nowMs).changes === 1,
    /** Insert or update a product's name, URL and image from the platform; its review group is kept. */
    upsertProduct(storeId: string, p: CatalogueProduct): void {
      upsertProduct.run(storeId, p.productId, p.name, p.url, p.imageUrl);
    },
    /** Insert a product named from an order line when it is not known yet (a later product webhook names it properly). */
    ensureProduct(storeId: string, productId: string, name: string): void {
      ensureProduct.run(storeId, productId, name);
    },
    /** A product deleted on the platform: it keeps its reviews and name, but no longer links to a page. */
    unlistProduct(storeId: string, productId: string): void {
      unlist.run(storeId, productId);
    },
  };
}
export type PlatformsRepo = ReturnType<typeof platformsRepo>;

/**
 * SQL of the review-app importer (app-import.ts): products by handle (migration 081), products created
 * by an import, and the store reply of an imported review; and the source keys already imported, for the
 * reviews CSV import (reviews-csv.ts) too. Every query names the store.
 */
import { dialect, type Db } from "../db/database.ts";

/** A store's product as the importer matches it. */
export type ImportProductRow = { product_id: string; name: string; handle: string | null };

/** Create the importer's data module over `db`. */
export function appImportRepo(db: Db) {
  const byId = db.prepare<[string, string], ImportProductRow>("SELECT product_id, name, handle FROM products WHERE store_id = ? AND product_id = ?");
  const byHandle = db.prepare<[string, string], ImportProductRow>(
    "SELECT product_id, name, handle FROM products WHERE store_id = ? AND handle = ? ORDER BY product_id LIMIT 1",
  );
  const insertProduct = db.prepare(
    "INSERT INTO products (store_id, product_id, name, url, handle) VALUES (?, ?, ?, ?, ?) ON CONFLICT (store_id, product_id) DO NOTHING",
  );
  const fillHandle = db.prepare("UPDATE products SET handle = ? WHERE store_id = ? AND product_id = ? AND handle IS NULL");
  const setReply = db.prepare("UPDATE reviews SET reply_body = ?, reply_created_ms = ? WHERE store_id = ? AND review_id = ?");
  const presentKeys = db.prepare<[string, string, string], { source_key: string }>(
    `SELECT source_key FROM reviews WHERE store_id = ? AND source = ?
       AND source_key IN (SELECT value FROM ${dialect(db) === "postgres" ? "jsonb_array_elements_text(CAST(? AS jsonb))" : "json_each(?)"})`,
  );
  const rejectedNow = db.prepare("UPDATE review_media SET rejected_ms = ? WHERE store_id = ? AND review_id = ? AND status = 'rejected'");
  return {
    /** The store's product with this ID, or undefined. */
    productById(storeId: string, productId: string): ImportProductRow | undefined {
      return byId.get(storeId, productId);
    },
    /** The store's product with this handle (the lowest ID when several share it), or undefined. */
    productByHandle(storeId: string, handle: string): ImportProductRow | undefined {
      return byHandle.get(storeId, handle);
    },
    /** Create a product (no-op when the ID exists). `url` is the product page on the shop, or null. */
    createProduct(p: { storeId: string; productId: string; name: string; url: string | null; handle: string | null }): void {
      insertProduct.run(p.storeId, p.productId, p.name, p.url, p.handle);
    },
    /**
     * Of `sourceKeys`, those the store already has a review for from import `source` (the reviews CSV import
     * asks once per batch of rows, not once per row: one round trip instead of thousands on PostgreSQL).
     */
    presentSourceKeys(storeId: string, source: string, sourceKeys: readonly string[]): Set<string> {
      if (sourceKeys.length === 0) return new Set();
      return new Set(presentKeys.all(storeId, source, JSON.stringify(sourceKeys)).map((r) => r.source_key));
    },
    /** Record a product's handle when it has none yet. */
    fillHandle(storeId: string, productId: string, handle: string): void {
      fillHandle.run(handle, storeId, productId);
    },
    /**
     * Date the rejection of an imported hidden or spam review's media at the import (`nowMs`), not at the
     * review's original date, so the retention sweep keeps its files for the usual grace period after import.
     */
    markMediaRejectedAt(storeId: string, reviewId: string, nowMs: number): void {
      rejectedNow.run(nowMs, storeId, reviewId);
    },
    /** Set the store's public reply of a review; `createdMs` (epoch ms) or null for "same as the review". */
    setReply(storeId: string, reviewId: string, body: string, createdMs: number | null): void {
      setReply.run(body, createdMs, storeId, reviewId);
    },
  };
}
export type AppImportRepo = ReturnType<typeof appImportRepo>;

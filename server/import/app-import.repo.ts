/**
 * SQL of the review-app importer (app-import.ts): products by handle (migration 081), products created
 * by an import, and the store reply of an imported review; and the source keys already imported, for the
 * reviews CSV import (reviews-csv.ts) too. Every query names the store.
 */
import { all, dialect, one, run, sql, type Db } from "../db/database.ts";

/** A store's product as the importer matches it. */
export type ImportProductRow = { product_id: string; name: string; handle: string | null };

/** Create the importer's data module over `db`. */
export function appImportRepo(db: Db) {
  const pg = dialect(db) === "postgres";
  return {
    /** The store's product with this ID, or undefined. */
    productById(storeId: string, productId: string): Promise<ImportProductRow | undefined> {
      return one<ImportProductRow>(db, sql`SELECT product_id, name, handle FROM products WHERE store_id = ${storeId} AND product_id = ${productId}`);
    },
    /** The store's product with this handle (the lowest ID when several share it), or undefined. */
    productByHandle(storeId: string, handle: string): Promise<ImportProductRow | undefined> {
      return one<ImportProductRow>(db, sql`SELECT product_id, name, handle FROM products WHERE store_id = ${storeId} AND handle = ${handle} ORDER BY product_id LIMIT 1`);
    },
    /** Create a product (no-op when the ID exists). `url` is the product page on the shop, or null. */
    async createProduct(p: { storeId: string; productId: string; name: string; url: string | null; handle: string | null }): Promise<void> {
      await run(
        db,
        sql`INSERT INTO products (store_id, product_id, name, url, handle) VALUES (${p.storeId}, ${p.productId}, ${p.name}, ${p.url}, ${p.handle})
        ON CONFLICT (store_id, product_id) DO NOTHING`,
      );
    },
    /**
     * Of `sourceKeys`, those the store already has a review for from import `source` (the reviews CSV import
     * asks once per batch of rows, not once per row: one round trip instead of thousands on PostgreSQL).
     */
    async presentSourceKeys(storeId: string, source: string, sourceKeys: readonly string[]): Promise<Set<string>> {
      if (sourceKeys.length === 0) return new Set();
      const keys = JSON.stringify(sourceKeys);
      const rows = await all<{ source_key: string }>(
        db,
        sql`SELECT source_key FROM reviews WHERE store_id = ${storeId} AND source = ${source}
        AND source_key IN (SELECT value FROM ${pg ? sql`jsonb_array_elements_text(CAST(${keys} AS jsonb))` : sql`json_each(${keys})`})`,
      );
      return new Set(rows.map((r) => r.source_key));
    },
    /** Record a product's handle when it has none yet. */
    async fillHandle(storeId: string, productId: string, handle: string): Promise<void> {
      await run(db, sql`UPDATE products SET handle = ${handle} WHERE store_id = ${storeId} AND product_id = ${productId} AND handle IS NULL`);
    },
    /**
     * Date the rejection of an imported hidden or spam review's media at the import (`nowMs`), not at the
     * review's original date, so the retention sweep keeps its files for the usual grace period after import.
     */
    async markMediaRejectedAt(storeId: string, reviewId: string, nowMs: number): Promise<void> {
      await run(db, sql`UPDATE review_media SET rejected_ms = ${nowMs} WHERE store_id = ${storeId} AND review_id = ${reviewId} AND status = 'rejected'`);
    },
    /** Set the store's public reply of a review; `createdMs` (epoch ms) or null for "same as the review". */
    async setReply(storeId: string, reviewId: string, body: string, createdMs: number | null): Promise<void> {
      await run(db, sql`UPDATE reviews SET reply_body = ${body}, reply_created_ms = ${createdMs} WHERE store_id = ${storeId} AND review_id = ${reviewId}`);
    },
  };
}
export type AppImportRepo = ReturnType<typeof appImportRepo>;

/**
 * Migration 103 (issue #38, docs/google-shopping.md): product identifiers per product and variant (GTIN, MPN, SKU,
 * brand) for Google's Product Reviews feed, and the per-store secret token of the feed's URL (sealed at rest).
 *
 * - `product_identifiers`: one row per (store, product, variant); `variant_id` '' is the product itself (Shopify's
 *   `vendor` lands there as the brand). `source` says who wrote the row (`shopify`, `csv`): a platform webhook
 *   replaces only its own rows, so identifiers a merchant imported are kept.
 * - `feed_tokens`: the feed URL's token per store, sealed with the installation key (platforms/secret-box.ts).
 * - an index of review-request products by review, so the feed finds the order of a requested review per batch.
 */
import { sql } from "kysely";
import type { Migration } from "./migration.ts";
import { executor } from "../query.ts";
import { columnTypes } from "../schema/column-types.ts";

export const productFeedsMigration: Migration = {
  version: 103,
  name: "103-product-feeds",
  async up(db) {
    const schema = executor(db).schema;
    const { integer, text } = columnTypes(db);
    await schema
      .createTable("product_identifiers")
      .addColumn("store_id", text, (c) => c.notNull())
      .addColumn("product_id", text, (c) => c.notNull())
      .addColumn("variant_id", text, (c) => c.notNull().defaultTo(sql`''`))
      .addColumn("gtin", text)
      .addColumn("mpn", text)
      .addColumn("sku", text)
      .addColumn("brand", text)
      .addColumn("source", text, (c) => c.notNull().check(sql`source IN ('shopify', 'csv', 'signed-webhook')`))
      .addColumn("updated_ms", integer, (c) => c.notNull())
      .addPrimaryKeyConstraint("product_identifiers_pkey", ["store_id", "product_id", "variant_id"])
      .addForeignKeyConstraint("product_identifiers_store_id_product_id_fkey", ["store_id", "product_id"], "products", ["store_id", "product_id"], (c) => c.onDelete("cascade"))
      .execute();
    await schema
      .createTable("feed_tokens")
      .addColumn("store_id", text, (c) => c.primaryKey().references("stores.store_id").onDelete("cascade"))
      .addColumn("token_sealed", text, (c) => c.notNull())
      .addColumn("created_ms", integer, (c) => c.notNull())
      .execute();
    await schema
      .createIndex("review_request_products_review")
      .on("review_request_products")
      .columns(["store_id", "review_id"])
      .where(sql<boolean>`review_id IS NOT NULL`)
      .execute();
  },
};

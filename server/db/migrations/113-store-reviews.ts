/**
 * Migration 113 (issue #38, docs/google-shopping.md "Seller ratings"): store reviews, reviews of the shop itself
 * for Google seller ratings (the merchant review feed).
 *
 * A table of their own rather than a store scope in `reviews`: every existing query over `reviews` (aggregates,
 * listings, media, exports, the Product Reviews feed, search) assumes a product and stays untouched, so store
 * reviews can never leak into product stars or the product feed.
 *
 * - `store_reviews`: rating 1–5, title, text, reviewer name and e-mail, `verified_status` (`verified-buyer` only
 *   when the review came through a review request, whose order is `order_id`), moderation `status`
 *   (`pending`, `published`, `rejected`) and the review request it came from, if any.
 * - The keyset index of the merchant review feed: published store reviews by (created_ms, review_id).
 */
import { sql } from "kysely";
import type { Migration } from "./migration.ts";
import { executor } from "../query.ts";
import { columnTypes } from "../schema/column-types.ts";

export const storeReviewsMigration: Migration = {
  version: 113,
  name: "113-store-reviews",
  async up(db) {
    const schema = executor(db).schema;
    const { integer, text } = columnTypes(db);
    await schema
      .createTable("store_reviews")
      .addColumn("review_id", text, (c) => c.primaryKey())
      .addColumn("store_id", text, (c) => c.notNull().references("stores.store_id").onDelete("cascade"))
      .addColumn("rating", integer, (c) => c.notNull().check(sql`rating BETWEEN 1 AND 5`))
      .addColumn("title", text, (c) => c.notNull().defaultTo(sql`''`))
      .addColumn("body", text, (c) => c.notNull())
      .addColumn("reviewer_name", text, (c) => c.notNull())
      .addColumn("reviewer_email", text, (c) => c.notNull())
      .addColumn("verified_status", text, (c) => c.notNull().check(sql`verified_status IN ('verified-buyer', 'unverified')`))
      .addColumn("order_id", text)
      .addColumn("request_id", text)
      .addColumn("status", text, (c) => c.notNull().check(sql`status IN ('pending', 'published', 'rejected')`))
      .addColumn("created_ms", integer, (c) => c.notNull())
      .addColumn("updated_ms", integer, (c) => c.notNull())
      .execute();
    await schema.createIndex("store_reviews_store_status_date").on("store_reviews").columns(["store_id", "status", "created_ms", "review_id"]).execute();
    await schema
      .createIndex("store_reviews_request")
      .on("store_reviews")
      .columns(["store_id", "request_id"])
      .unique()
      .where(sql<boolean>`request_id IS NOT NULL`)
      .execute();
  },
};

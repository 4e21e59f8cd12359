/**
 * Migration 110 (issue #38 item 2, docs/platforms.md "WooCommerce"): WooCommerce as a shop platform.
 *
 * - `platform_connections.woo_site_url` (the shop's normalised address, `https://shop.example` without a trailing
 *   slash, unique: the `X-WC-Webhook-Source` of its webhooks finds the store), `woo_consumer_key_encrypted`,
 *   `woo_consumer_secret_encrypted` (the REST API key that creates coupons) and `woo_webhook_secret_encrypted` (the
 *   secret WooCommerce signs webhooks with), all sealed like the app secret (server/platforms/secret-box.ts), and
 *   `woo_set_ms`, when the connection was last changed.
 * - `platform_webhooks.body_digest`: the HMAC of a WooCommerce delivery's body, unique per store. WooCommerce signs
 *   the body only (not the delivery ID), so a captured delivery sent again under a new delivery ID is recognised by it.
 * - `loyalty_rewards.platform` accepts `woocommerce` (the table is rebuilt with its rows and every column of the
 *   migrations before it, 106's `reconciled_ms` included: a CHECK constraint cannot be changed in place on SQLite).
 */
import { sql } from "kysely";
import { executor, run, type Db } from "../query.ts";
import { columnTypes } from "../schema/column-types.ts";
import type { Migration } from "./migration.ts";

const REWARD_COLUMNS =
  "code, store_id, loyalty_customer_id, redemption_rule_id, reward_type, reward_value, points_cost, platform, state, platform_discount_id, error, transaction_id, created_ms, updated_ms, reconciled_ms";

async function up(db: Db): Promise<void> {
  const schema = executor(db).schema;
  const { integer, text, real } = columnTypes(db);
  for (const column of ["woo_site_url", "woo_consumer_key_encrypted", "woo_consumer_secret_encrypted", "woo_webhook_secret_encrypted"]) {
    await schema.alterTable("platform_connections").addColumn(column, text).execute();
  }
  await schema.alterTable("platform_connections").addColumn("woo_set_ms", integer).execute();
  await schema
    .createIndex("platform_connections_woo_site")
    .unique()
    .on("platform_connections")
    .columns(["woo_site_url"])
    .where(sql<boolean>`woo_site_url IS NOT NULL`)
    .execute();
  await schema.alterTable("platform_webhooks").addColumn("body_digest", text).execute();
  await schema
    .createIndex("platform_webhooks_body_digest")
    .unique()
    .on("platform_webhooks")
    .columns(["store_id", "body_digest"])
    .where(sql<boolean>`body_digest IS NOT NULL`)
    .execute();

  await schema
    .createTable("loyalty_rewards_110")
    .addColumn("code", text, (c) => c.primaryKey())
    .addColumn("store_id", text, (c) => c.notNull().references("stores.store_id").onDelete("cascade"))
    .addColumn("loyalty_customer_id", text, (c) => c.notNull())
    .addColumn("redemption_rule_id", text, (c) => c.notNull())
    .addColumn("reward_type", text, (c) => c.notNull())
    .addColumn("reward_value", real, (c) => c.notNull())
    .addColumn("points_cost", integer, (c) => c.notNull())
    .addColumn("platform", text, (c) => c.notNull().check(sql`platform IN ('shopify', 'woocommerce', 'webhook', 'demo')`))
    .addColumn("state", text, (c) => c.notNull().check(sql`state IN ('pending', 'confirmed', 'failed')`))
    .addColumn("platform_discount_id", text)
    .addColumn("error", text)
    .addColumn("transaction_id", text)
    .addColumn("created_ms", integer, (c) => c.notNull())
    .addColumn("updated_ms", integer, (c) => c.notNull())
    .addColumn("reconciled_ms", integer) // migration 106
    .execute();
  await run(db, sql`INSERT INTO loyalty_rewards_110 (${sql.raw(REWARD_COLUMNS)}) SELECT ${sql.raw(REWARD_COLUMNS)} FROM loyalty_rewards`);
  await schema.dropTable("loyalty_rewards").execute();
  await schema.alterTable("loyalty_rewards_110").renameTo("loyalty_rewards").execute();
  await schema.createIndex("loyalty_rewards_customer").on("loyalty_rewards").columns(["store_id", "loyalty_customer_id", "state"]).execute();
  await schema
    .createIndex("loyalty_rewards_pending")
    .on("loyalty_rewards")
    .columns(["created_ms"])
    .where(sql<boolean>`state = 'pending'`)
    .execute();
  await schema.createIndex("loyalty_rewards_store").on("loyalty_rewards").columns(["store_id", "created_ms"]).execute();
}

/** The migration (appended to MIGRATIONS, server/db/migrate.ts). */
export const woocommerceMigration: Migration = { version: 110, name: "110-woocommerce", up };

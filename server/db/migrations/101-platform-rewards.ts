/**
 * Migration 101 (issue #35 item 1, docs/loyalty.md "Rewards at checkout"): rewards created on the shop platform.
 *
 * - `platform_connections.admin_token_encrypted`, `admin_token_set_ms`: the store's Shopify Admin API access token,
 *   sealed like the app secret (server/platforms/secret-box.ts), write-only.
 * - `loyalty_rewards`: one row per reward issued for a redemption, written `pending` BEFORE the platform is asked
 *   to create the discount (so the points it costs are reserved), then `confirmed` together with the redemption
 *   transaction, or `failed` (nothing taken). `code` is unique across the installation (the coupon code); a
 *   reconciler settles rows left `pending` by a crash (server/loyalty/platform-rewards.ts).
 * - `loyalty_redemption_rules.minimum_order_amount` (currency units) and `code_expires_after_days`: the conditions
 *   the platform discount of a reward carries (none when null).
 */
import { sql } from "kysely";
import { executor, type Db } from "../query.ts";
import { columnTypes } from "../schema/column-types.ts";
import type { Migration } from "./migration.ts";

async function up(db: Db): Promise<void> {
  const schema = executor(db).schema;
  const { integer, text, real } = columnTypes(db);
  await schema.alterTable("platform_connections").addColumn("admin_token_encrypted", text).execute();
  await schema.alterTable("platform_connections").addColumn("admin_token_set_ms", integer).execute();
  await schema.alterTable("loyalty_redemption_rules").addColumn("minimum_order_amount", real).execute();
  await schema.alterTable("loyalty_redemption_rules").addColumn("code_expires_after_days", integer).execute();
  await schema
    .createTable("loyalty_rewards")
    .addColumn("code", text, (c) => c.primaryKey())
    .addColumn("store_id", text, (c) => c.notNull().references("stores.store_id").onDelete("cascade"))
    .addColumn("loyalty_customer_id", text, (c) => c.notNull())
    .addColumn("redemption_rule_id", text, (c) => c.notNull())
    .addColumn("reward_type", text, (c) => c.notNull())
    .addColumn("reward_value", real, (c) => c.notNull())
    .addColumn("points_cost", integer, (c) => c.notNull())
    .addColumn("platform", text, (c) => c.notNull().check(sql`platform IN ('shopify', 'webhook', 'demo')`))
    .addColumn("state", text, (c) => c.notNull().check(sql`state IN ('pending', 'confirmed', 'failed')`))
    .addColumn("platform_discount_id", text)
    .addColumn("error", text)
    .addColumn("transaction_id", text)
    .addColumn("created_ms", integer, (c) => c.notNull())
    .addColumn("updated_ms", integer, (c) => c.notNull())
    .execute();
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
export const platformRewardsMigration: Migration = { version: 101, name: "101-platform-rewards", up };

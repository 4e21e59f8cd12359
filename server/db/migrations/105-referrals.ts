/**
 * Migration 105 (issue #35 item 2, docs/loyalty.md "Referrals"): the referral program.
 *
 * - `referral_programs`: one row per store: on/off, the friend's discount (fixed amount or percentage, in currency
 *   units or percent, with an optional minimum order) and the sender's reward (`points`, or a fixed-amount or
 *   percentage coupon of `sender_reward_value`).
 * - `referral_senders`: one shareable link per (store, sender e-mail): the same sender always gets the same link.
 * - `referral_friends`: one friend discount per (store, friend e-mail), whichever link it came from; written
 *   `pending` before the platform is asked, then `created` (a failure deletes the row: nothing half-done).
 * - `referral_rewards`: the sender's reward for a friend's order, one per (store, friend code): the unique key makes
 *   the award exactly-once across nodes. `state`: `pending` (a coupon still to be created on the platform),
 *   `awarded`, `reversed` (the friend's order was cancelled or refunded).
 */
import { sql } from "kysely";
import { executor, type Db } from "../query.ts";
import { columnTypes } from "../schema/column-types.ts";
import type { Migration } from "./migration.ts";

async function up(db: Db): Promise<void> {
  const schema = executor(db).schema;
  const { integer, text, real } = columnTypes(db);
  await schema
    .createTable("referral_programs")
    .addColumn("store_id", text, (c) => c.primaryKey().references("stores.store_id").onDelete("cascade"))
    .addColumn("enabled", integer, (c) =>
      c
        .notNull()
        .defaultTo(sql`0`)
        .check(sql`enabled IN (0, 1)`),
    )
    .addColumn("friend_discount_type", text, (c) => c.notNull().check(sql`friend_discount_type IN ('fixed-amount-coupon', 'percentage-coupon')`))
    .addColumn("friend_discount_value", real, (c) => c.notNull().check(sql`friend_discount_value > 0`))
    .addColumn("friend_minimum_order", real)
    .addColumn("sender_reward_type", text, (c) => c.notNull().check(sql`sender_reward_type IN ('points', 'fixed-amount-coupon', 'percentage-coupon')`))
    .addColumn("sender_reward_value", real, (c) => c.notNull().check(sql`sender_reward_value > 0`))
    .addColumn("updated_ms", integer, (c) => c.notNull())
    .execute();
  await schema
    .createTable("referral_senders")
    .addColumn("referral_sender_id", text, (c) => c.primaryKey())
    .addColumn("store_id", text, (c) => c.notNull().references("stores.store_id").onDelete("cascade"))
    .addColumn("email", text, (c) => c.notNull())
    .addColumn("created_ms", integer, (c) => c.notNull())
    .addUniqueConstraint("referral_senders_store_email_key", ["store_id", "email"])
    .execute();
  await schema
    .createTable("referral_friends")
    .addColumn("code", text, (c) => c.primaryKey())
    .addColumn("store_id", text, (c) => c.notNull().references("stores.store_id").onDelete("cascade"))
    .addColumn("referral_sender_id", text, (c) => c.notNull().references("referral_senders.referral_sender_id").onDelete("cascade"))
    .addColumn("email", text, (c) => c.notNull())
    .addColumn("discount_type", text, (c) => c.notNull())
    .addColumn("discount_value", real, (c) => c.notNull())
    .addColumn("minimum_order", real)
    .addColumn("platform", text)
    .addColumn("platform_discount_id", text)
    .addColumn("state", text, (c) => c.notNull().check(sql`state IN ('pending', 'created')`))
    .addColumn("created_ms", integer, (c) => c.notNull())
    .addUniqueConstraint("referral_friends_store_email_key", ["store_id", "email"])
    .execute();
  await schema.createIndex("referral_friends_sender").on("referral_friends").columns(["store_id", "referral_sender_id"]).execute();
  await schema
    .createTable("referral_rewards")
    .addColumn("store_id", text, (c) => c.notNull().references("stores.store_id").onDelete("cascade"))
    .addColumn("friend_code", text, (c) => c.notNull().references("referral_friends.code").onDelete("cascade"))
    .addColumn("order_id", text, (c) => c.notNull())
    .addColumn("referral_sender_id", text, (c) => c.notNull())
    .addColumn("reward_type", text, (c) => c.notNull())
    .addColumn("reward_value", real, (c) => c.notNull())
    .addColumn("loyalty_customer_id", text)
    .addColumn("transaction_id", text)
    .addColumn("coupon_code", text)
    .addColumn("state", text, (c) => c.notNull().check(sql`state IN ('pending', 'awarded', 'reversed')`))
    .addColumn("created_ms", integer, (c) => c.notNull())
    .addColumn("updated_ms", integer, (c) => c.notNull())
    .addPrimaryKeyConstraint("referral_rewards_pkey", ["store_id", "friend_code"])
    .execute();
  await schema.createIndex("referral_rewards_order").on("referral_rewards").columns(["store_id", "order_id"]).execute();
  await schema
    .createIndex("referral_rewards_pending")
    .on("referral_rewards")
    .columns(["created_ms"])
    .where(sql<boolean>`state = 'pending'`)
    .execute();
}

/** The migration (appended to MIGRATIONS, server/db/migrate.ts). */
export const referralsMigration: Migration = { version: 105, name: "105-referrals", up };

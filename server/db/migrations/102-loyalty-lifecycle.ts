/**
 * Migration 102: the loyalty lifecycle (docs/loyalty.md "Birthdays", "Expiry", "Pending points and refunds").
 *
 * - `loyalty_programs`: the program's time zone (IANA, default UTC: birthdays fall on the local day), points expiry
 *   after N months without activity (NULL = off, else 6–36), the return window of order points (0–60 days) and
 *   VIP tier re-qualification (0/1: with 1, lowered lifetime points can lower the tier).
 * - `loyalty_customers`: the shopper's birthday (`MM-DD`) and when it was last set (changeable once a year).
 * - `loyalty_pending_points`: order points waiting for the end of the return window, one row per (store, order).
 * - `loyalty_refunds`: each platform refund applied once per (store, refund).
 * - `loyalty_transactions`: a fourth type, `expiry` (negative points). The type is a CHECK constraint, so SQLite
 *   rebuilds the table (same columns, rows, indexes and triggers); PostgreSQL replaces the two constraints.
 */
import { sql } from "kysely";
import { dialect, exec, executor, value, values, type Db } from "../query.ts";
import type { Migration } from "./migration.ts";
import { columnTypes } from "../schema/column-types.ts";

const OLD_TYPES = /type IN \('earning', 'redemption', 'adjustment'\)/;
const NEW_TYPES = "type IN ('earning', 'redemption', 'adjustment', 'expiry')";
const OLD_SIGN = /OR type = 'adjustment'\)/;
const NEW_SIGN = "OR type = 'adjustment' OR (type = 'expiry' AND points < 0))";

async function up(db: Db): Promise<void> {
  const pg = dialect(db) === "postgres";
  const schema = executor(db).schema;
  const { integer, text, real } = columnTypes(db);

  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await schema
    .alterTable("loyalty_programs")
    .addColumn("time_zone", text, (c) => c.notNull().defaultTo(sql`'UTC'`))
    .execute();
  await schema
    .alterTable("loyalty_programs")
    .addColumn("points_expiry_months", integer, (c) => c.check(sql`points_expiry_months IS NULL OR (points_expiry_months >= 6 AND points_expiry_months <= 36)`))
    .execute();
  await schema
    .alterTable("loyalty_programs")
    .addColumn("return_window_days", integer, (c) =>
      c
        .notNull()
        .defaultTo(sql`0`)
        .check(sql`return_window_days >= 0 AND return_window_days <= 60`),
    )
    .execute();
  await schema
    .alterTable("loyalty_programs")
    .addColumn("tier_requalification", integer, (c) =>
      c
        .notNull()
        .defaultTo(sql`0`)
        .check(sql`tier_requalification IN (0, 1)`),
    )
    .execute();
  await schema.alterTable("loyalty_customers").addColumn("birthday", text).execute();
  await schema.alterTable("loyalty_customers").addColumn("birthday_set_ms", integer).execute();

  await schema
    .createTable("loyalty_pending_points")
    .addColumn("pending_id", text, (c) => c.primaryKey())
    .addColumn("store_id", text, (c) => c.notNull().references("stores.store_id").onDelete("cascade"))
    .addColumn("loyalty_customer_id", text, (c) => c.notNull().references("loyalty_customers.loyalty_customer_id"))
    .addColumn("order_id", text, (c) => c.notNull())
    .addColumn("points", integer, (c) => c.notNull().check(sql`points >= 0`))
    .addColumn("order_amount", real, (c) => c.notNull())
    .addColumn("refunded_amount", real, (c) => c.notNull().defaultTo(sql`0`))
    .addColumn("earning_rule_id", text)
    .addColumn("description", text, (c) => c.notNull())
    .addColumn("state", text, (c) =>
      c
        .notNull()
        .defaultTo(sql`'pending'`)
        .check(sql`state IN ('pending', 'confirmed', 'cancelled')`),
    )
    .addColumn("confirm_after_ms", integer, (c) => c.notNull())
    .addColumn("created_ms", integer, (c) => c.notNull())
    .addUniqueConstraint("loyalty_pending_points_store_id_order_id_key", ["store_id", "order_id"])
    .execute();
  await schema.createIndex("loyalty_pending_points_due").on("loyalty_pending_points").columns(["state", "confirm_after_ms"]).execute();
  await schema.createIndex("loyalty_pending_points_customer").on("loyalty_pending_points").columns(["store_id", "loyalty_customer_id", "state"]).execute();
  await schema
    .createTable("loyalty_refunds")
    .addColumn("store_id", text, (c) => c.notNull().references("stores.store_id").onDelete("cascade"))
    .addColumn("refund_id", text, (c) => c.notNull())
    .addColumn("order_id", text, (c) => c.notNull())
    .addColumn("amount", real, (c) => c.notNull())
    .addColumn("points", integer, (c) => c.notNull())
    .addColumn("created_ms", integer, (c) => c.notNull())
    .addPrimaryKeyConstraint("loyalty_refunds_pkey", ["store_id", "refund_id"])
    .execute();

  if (pg) {
    const checks = await values<string>(
      db,
      sql`SELECT conname FROM pg_constraint WHERE conrelid = 'loyalty_transactions'::regclass AND contype = 'c'
      AND (pg_get_constraintdef(oid) LIKE '%''adjustment''%')`,
    );
    for (const name of checks) await exec(db, `ALTER TABLE loyalty_transactions DROP CONSTRAINT "${name}"`);
    await exec(
      db,
      `ALTER TABLE loyalty_transactions ADD CONSTRAINT loyalty_transactions_type_check CHECK (${NEW_TYPES}),
      ADD CONSTRAINT loyalty_transactions_check CHECK ((type = 'earning' AND points >= 0) OR (type = 'redemption' AND points < 0) OR type = 'adjustment' OR (type = 'expiry' AND points < 0))`,
    );
    return;
  }
  // SQLite: rebuild loyalty_transactions with the wider checks (SQLite cannot alter a CHECK in place).
  const table = (await value<string>(db, sql`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'loyalty_transactions'`))!;
  if (!OLD_TYPES.test(table) || !OLD_SIGN.test(table)) throw new Error("migration 102: loyalty_transactions has unexpected checks");
  const rebuilt = table
    .replace(/^create table "?loyalty_transactions"?/i, 'CREATE TABLE "loyalty_transactions_102"')
    .replace(OLD_TYPES, NEW_TYPES)
    .replace(OLD_SIGN, NEW_SIGN);
  const dependents = await values<string>(db, sql`SELECT sql FROM sqlite_master WHERE tbl_name = 'loyalty_transactions' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, rowid`);
  await exec(db, rebuilt);
  await exec(db, `INSERT INTO "loyalty_transactions_102" SELECT * FROM loyalty_transactions`);
  await exec(db, `DROP TABLE loyalty_transactions`);
  // Legacy rename: the triggers of other tables that name loyalty_transactions (the balance guard) are not re-parsed meanwhile.
  await exec(db, `PRAGMA legacy_alter_table = ON`);
  await exec(db, `ALTER TABLE "loyalty_transactions_102" RENAME TO loyalty_transactions`);
  await exec(db, `PRAGMA legacy_alter_table = OFF`);
  for (const statement of dependents) await exec(db, statement);
}

export const migration102: Migration = { version: 102, name: "102-loyalty-lifecycle", up };

/**
 * Migration 109 (issue #35 item 5, docs/loyalty.md "Points history"): `loyalty_transactions.details`, the values a
 * transaction's text needs (JSON: the order's label, the product reviewed, the reward's name, the expiry months, ...), so
 * the panel writes each history line in the shopper's language from its `kind`. Null for transactions written before
 * (their English `description` stays their text).
 */
import { executor, type Db } from "../query.ts";
import { columnTypes } from "../schema/column-types.ts";
import type { Migration } from "./migration.ts";

async function up(db: Db): Promise<void> {
  const { text } = columnTypes(db);
  await executor(db).schema.alterTable("loyalty_transactions").addColumn("details", text).execute();
}

/** The migration (appended to MIGRATIONS, server/db/migrate.ts). */
export const transactionDetailsMigration: Migration = { version: 109, name: "109-transaction-details", up };

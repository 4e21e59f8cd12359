/**
 * Migration 106 (issue #35 item 7, docs/loyalty.md "Enterprise loyalty API"): `loyalty_rewards.reconciled_ms`, when the
 * reconciler (not the redemption itself) settled a reward left pending: the enterprise list of issued rewards tells a
 * code confirmed late (`reconciled`) from one created at once (`created`). Null for rewards settled by the redemption.
 */
import { executor, type Db } from "../query.ts";
import { columnTypes } from "../schema/column-types.ts";
import type { Migration } from "./migration.ts";

async function up(db: Db): Promise<void> {
  const { integer } = columnTypes(db);
  await executor(db).schema.alterTable("loyalty_rewards").addColumn("reconciled_ms", integer).execute();
}

/** The migration (appended to MIGRATIONS, server/db/migrate.ts). */
export const rewardReconciledMigration: Migration = { version: 106, name: "106-reward-reconciled", up };

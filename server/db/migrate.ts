/**
 * Schema migrations: one history for both engines, written once in TypeScript (server/db/schema/), recorded in
 * `schema_migrations` (version, name, applied_at).
 *
 * - Version 100 is the baseline (schema/baseline.ts): the whole schema on an empty database of either engine.
 * - Later migrations (101, 102, …) are appended to MIGRATIONS, each an `up(db)` written once with Kysely's schema
 *   builder and the query helpers, branching on `dialect(db)` only where the engines truly differ.
 * - A database created before the baseline (legacy files: SQLite 001-088, PostgreSQL 001-008, recorded in the same
 *   `schema_migrations`) is upgraded in place: the legacy files it lacks are applied first (server/db/legacy/,
 *   kept only for this path), then the baseline is recorded as applied without running (its schema is the one
 *   those files build: server/db/schema/schema.test.ts and server/db/postgres-schema.test.ts), every row kept.
 *
 * On an up-to-date database one query (`SELECT version FROM schema_migrations`) finds nothing pending.
 * Each migration runs in its own transaction with its record (DDL is transactional on both engines).
 * On PostgreSQL one session-level advisory lock (MIGRATION_LOCK_KEY) is held while migrating and installing
 * triggers at start-up, on a connection of its own (not one of the pool's), so nodes starting together migrate
 * once; it is never taken by ordinary writes.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { exec, run, sql, transaction, values, type Db, type Dialect } from "./query.ts";
import { baseline } from "./schema/baseline.ts";
import { platformRewardsMigration } from "./migrations/101-platform-rewards.ts";
import { migration102 } from "./migrations/102-loyalty-lifecycle.ts";
import { productFeedsMigration } from "./migrations/103-product-feeds.ts";
import { surveyChannels } from "./migrations/104-survey-channels.ts";
import { referralsMigration } from "./migrations/105-referrals.ts";
import { rewardReconciledMigration } from "./migrations/106-reward-reconciled.ts";
import { surveyRewardsProfiles } from "./migrations/107-survey-rewards-profiles.ts";
import { widgetPageChecks } from "./migrations/108-widget-page-checks.ts";
import { transactionDetailsMigration } from "./migrations/109-transaction-details.ts";
import { woocommerceMigration } from "./migrations/110-woocommerce.ts";
import { klaviyoMigration } from "./migrations/111-klaviyo.ts";
import { storeDefaultLanguage } from "./migrations/112-store-default-language.ts";
import { storeReviewsMigration } from "./migrations/113-store-reviews.ts";
import type { Migration } from "./migrations/migration.ts";

export type { Migration } from "./migrations/migration.ts";

/** Every migration, oldest first. Append new ones (version 101, 102, …); never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 100, name: "100-baseline", up: baseline },
  platformRewardsMigration,
  migration102,
  productFeedsMigration,
  surveyChannels,
  referralsMigration,
  rewardReconciledMigration,
  surveyRewardsProfiles,
  widgetPageChecks,
  transactionDetailsMigration,
  woocommerceMigration,
  klaviyoMigration,
  storeDefaultLanguage,
  storeReviewsMigration,
];

/** The version of the baseline migration. */
export const BASELINE_VERSION = 100;

/** The last legacy migration file per engine: a database at that version has the baseline's schema. */
export const LEGACY_LAST_VERSION: Record<Dialect, number> = { sqlite: 88, postgres: 8 };

const LEGACY_DIR = join(dirname(fileURLToPath(import.meta.url)), "legacy");

/** The advisory lock held while a node migrates (an arbitrary constant: "chorus" in ASCII). Start-up only. */
export const MIGRATION_LOCK_KEY = 0x63686f727573;

/**
 * Apply every pending migration, then run `after` (trigger installs) under the same lock.
 * @returns the versions applied (legacy files included; the baseline when it ran or was recorded).
 */
export async function migrate(db: Db, after: () => Promise<void> = () => Promise.resolve()): Promise<number[]> {
  if (db.dialect === "sqlite") {
    const done = await migrateUnlocked(db);
    await after();
    return done;
  }
  // One node migrates at a time; the others wait here, then find nothing left to apply. The lock lives on a
  // connection of its own, so a pool of one connection (DATABASE_POOL_SIZE=1) still has it free for the work.
  const client = new pg.Client({ connectionString: db.location, application_name: "chorus-migrate" });
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    const done = await migrateUnlocked(db);
    await after();
    return done;
  } finally {
    await client.end(); // ends the session: releases the lock
  }
}

/** The versions recorded in schema_migrations, or null when the table does not exist yet (an empty database). */
async function appliedVersions(db: Db): Promise<Set<number> | null> {
  try {
    return new Set(await values<number>(db, sql`SELECT version FROM schema_migrations`));
  } catch {
    return null;
  }
}

async function migrateUnlocked(db: Db): Promise<number[]> {
  let applied = await appliedVersions(db);
  // Every version, not only the last: migrations are appended in the order branches merge, so a database may hold
  // a later version (108) without an earlier one appended after it (107).
  const found = applied;
  if (found && MIGRATIONS.every((m) => found.has(m.version))) return []; // the one query of an up-to-date start
  const done: number[] = [];
  if (!applied) {
    await createMigrationsTable(db);
    applied = new Set();
  }
  if (applied.size > 0 && !applied.has(BASELINE_VERSION)) {
    // A database of the legacy migration files: finish them, then record the baseline (its schema is theirs).
    done.push(...(await applyLegacy(db, applied)));
    await transaction(db, () => record(db, BASELINE_VERSION, "100-baseline (recorded: legacy schema complete)"));
    applied.add(BASELINE_VERSION);
    done.push(BASELINE_VERSION);
  }
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    await transaction(db, async () => {
      await migration.up(db);
      await record(db, migration.version, migration.name);
    });
    done.push(migration.version);
  }
  return done;
}

async function createMigrationsTable(db: Db): Promise<void> {
  const columns = db.dialect === "sqlite" ? "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL" : "version bigint PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL";
  await exec(db, `CREATE TABLE IF NOT EXISTS schema_migrations (${columns})`);
}

async function record(db: Db, version: number, name: string): Promise<void> {
  await run(db, sql`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${version}, ${name}, ${new Date().toISOString()})`);
}

/**
 * Apply the legacy migration files (server/db/legacy/<engine>/NNN-name.sql) that `applied` lacks, each in its
 * own transaction with its record, as the runner before the baseline did. Only for databases created before it;
 * tests use it to build a legacy database.
 * @returns the versions applied.
 */
export async function applyLegacy(db: Db, applied: ReadonlySet<number> = new Set()): Promise<number[]> {
  await createMigrationsTable(db);
  const dir = join(LEGACY_DIR, db.dialect);
  const files = (existsSync(dir) ? readdirSync(dir) : []).filter((f) => /^\d+-.+\.sql$/.test(f)).sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  const done: number[] = [];
  for (const file of files) {
    const version = parseInt(file, 10);
    if (applied.has(version) || version > LEGACY_LAST_VERSION[db.dialect]) continue;
    const text = readFileSync(join(dir, file), "utf8");
    await transaction(db, async () => {
      await exec(db, text);
      await record(db, version, file);
    });
    done.push(version);
  }
  return done;
}

/**
 * Schema migrations. (Interim: the engine's own migration files, `migrations/NNN-*.sql` for SQLite and
 * `postgres/NNN-*.sql` for PostgreSQL, each in its own transaction, recorded in `schema_migrations`.)
 * On PostgreSQL one session-level advisory lock (MIGRATION_LOCK_KEY) is held while migrating and installing
 * triggers at start-up, so nodes starting together migrate once; it is never taken by ordinary writes.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { exec, sql, transaction, values, type Db } from "./query.ts";

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "migrations");
const POSTGRES_MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "postgres");

/** The advisory lock held while a node migrates (an arbitrary constant: "chorus" in ASCII). Start-up only. */
export const MIGRATION_LOCK_KEY = 0x63686f727573;

/**
 * Apply every pending migration, then run `after` (trigger installs) under the same lock.
 * @returns the versions applied.
 */
export async function migrate(db: Db, after: () => Promise<void> = () => Promise.resolve()): Promise<number[]> {
  if (db.dialect === "sqlite") {
    const done = await migrateFrom(db, MIGRATIONS_DIR, "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL");
    await after();
    return done;
  }
  // One node migrates at a time; the others wait here, then find nothing left to apply.
  const client = await db.pool!.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    try {
      const done = await migrateFrom(db, POSTGRES_MIGRATIONS_DIR, "version bigint PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL");
      await after();
      return done;
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    }
  } finally {
    client.release();
  }
}

async function migrateFrom(db: Db, dir: string, columns: string): Promise<number[]> {
  await exec(db, `CREATE TABLE IF NOT EXISTS schema_migrations (${columns})`);
  const applied = new Set(await values<number>(db, sql`SELECT version FROM schema_migrations`));
  const files = (existsSync(dir) ? readdirSync(dir) : [])
    .filter((f) => /^\d+-.+\.sql$/.test(f))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  const done: number[] = [];
  for (const file of files) {
    const version = parseInt(file, 10);
    if (applied.has(version)) continue;
    const text = readFileSync(join(dir, file), "utf8");
    await transaction(db, async () => {
      await exec(db, text);
      await exec(db, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (${version}, '${file}', '${new Date().toISOString()}')`);
    });
    done.push(version);
  }
  return done;
}

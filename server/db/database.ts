/**
 * SQLite connection, pragmas, versioned migrations and the transaction helper.
 *
 * Migrations are the files `server/db/migrations/NNN-name.sql`, applied in numeric order,
 * each inside its own transaction, and recorded in `schema_migrations`. They run on every
 * start (`openDatabase`), so a fresh file and an old file both end at the newest schema.
 */
import Database from "better-sqlite3";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installContentScopeTriggers } from "./content-scopes.ts";
import { dialect, type Db } from "./dialect.ts";
import { isPostgresUrl, PostgresDatabase, WRITE_LOCK_KEY } from "./postgres.ts";
import { stableParameters } from "./stable-parameters.ts";

export { dialect, type Db, type Dialect } from "./dialect.ts";

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "migrations");
/** PostgreSQL's migrations (ADR 0014): `001-baseline.sql` is the SQLite schema as of SQLite migration 085. */
const POSTGRES_MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "postgres");

/**
 * Open (creating if needed) the SQLite file at `path` (or `:memory:`), set WAL mode and
 * safe pragmas, and apply pending migrations.
 * @throws if the file cannot be opened or a migration fails (the failed migration is rolled back).
 */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Db {
  if (isPostgresUrl(path)) return openPostgres(path, options);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: options.readonly ?? false });
  if (!options.readonly) {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
  }
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  // Deleted content is overwritten with zeros (freed pages and the free space of changed pages), so an erased
  // shopper's data does not stay readable in the file (docs/privacy.md "What stays on disk"). Costs more writes
  // on deletes and updates only (docs/performance.md).
  db.pragma("secure_delete = ON");
  db.pragma("cache_size = -65536"); // 64 MiB page cache
  // Memory-mapped reads only when SQLITE_MMAP_BYTES asks for them (default off): faster while nothing is
  // written, but after every commit by another connection SQLite unmaps the whole file at the next read, and
  // each page is faulted in again (~12 µs here). On the 1M-review store a product page took 0.14 ms mapped
  // with no commits, 0.26 ms with one commit per 2,000 pages read, 0.50 ms with one per 50; 0.23 ms
  // unmapped whether or not others commit (docs/performance.md).
  if (path !== ":memory:") db.pragma(`mmap_size = ${mmapBytes()}`);
  if (!options.readonly) {
    migrate(db);
    installContentScopeTriggers(db);
  }
  memoizePrepare(db);
  return db;
}

/**
 * Connect to the PostgreSQL database at `url` (server/db/postgres.ts) and, unless `readonly`, apply its pending
 * migrations (server/db/postgres/NNN-name.sql) and content-scope triggers. Several nodes may start at once:
 * migrating holds the write lock. The connection has better-sqlite3's API subset, so it is typed `Db`.
 * @throws if PostgreSQL cannot be reached or a migration fails (rolled back).
 */
function openPostgres(url: string, options: { readonly?: boolean }): Db {
  const db = new PostgresDatabase(url) as unknown as Db;
  if (!options.readonly) {
    migrate(db);
    installContentScopeTriggers(db);
  }
  return db;
}

/** The memory-map size for SQLite reads in bytes: env SQLITE_MMAP_BYTES (a non-negative integer), default 0 (off). */
function mmapBytes(): number {
  const raw = process.env.SQLITE_MMAP_BYTES;
  const value = raw === undefined || raw === "" ? 0 : Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`SQLITE_MMAP_BYTES must be a non-negative integer number of bytes, got "${raw}"`);
  return value;
}

/** Most prepared statements kept per connection (least recently used out). */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * Make `db.prepare(sql)` return a cached statement for SQL text it has prepared before: preparing
 * (parse + plan) costs ~100 µs, several times a keyset page read, and the data modules prepare their
 * SQL where they use it. A cached statement is handed out with its result modes reset (`pluck`, `raw`,
 * `expand` off), so one call site's `.pluck()` never leaks into another's. Statements are never
 * iterated concurrently in this code base (no `.iterate()`), so sharing one is safe.
 * Every statement is compiled with its parameters written `+?` (stable-parameters.ts): otherwise SQLite
 * compiles a statement with `col = ?` and an ORDER BY again on every run, for a new bound value.
 */
function memoizePrepare(db: Db): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let stmt = cache.get(sql);
    if (stmt) {
      cache.delete(sql);
      if (stmt.reader) stmt.pluck(false).raw(false).expand(false);
    } else {
      stmt = prepare(stableParameters(sql));
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    cache.set(sql, stmt);
    return stmt;
  }) as Db["prepare"];
}

/** Apply every migration file not yet recorded in `schema_migrations`. Returns the versions applied. */
export function migrate(db: Db): number[] {
  const postgres = dialect(db) === "postgres";
  if (postgres) {
    // One node migrates at a time; the others wait here, then find nothing left to apply.
    db.exec(`SELECT pg_advisory_lock(${WRITE_LOCK_KEY})`);
    try {
      return migrateFrom(db, POSTGRES_MIGRATIONS_DIR, "version bigint PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL");
    } finally {
      db.exec(`SELECT pg_advisory_unlock(${WRITE_LOCK_KEY})`);
    }
  }
  return migrateFrom(db, MIGRATIONS_DIR, "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL");
}

/** Apply the migration files of `dir` not yet recorded in `schema_migrations` (created with `columns`). */
function migrateFrom(db: Db, dir: string, columns: string): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (${columns})`);
  const applied = new Set(
    db.prepare("SELECT version FROM schema_migrations").pluck().all() as number[],
  );
  const files = (existsSync(dir) ? readdirSync(dir) : [])
    .filter((f) => /^\d+-.+\.sql$/.test(f))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  const done: number[] = [];
  for (const file of files) {
    const version = parseInt(file, 10);
    if (applied.has(version)) continue;
    const sql = readFileSync(join(dir, file), "utf8");
    transaction(db, () => {
      db.exec(sql);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        version,
        file,
        new Date().toISOString(),
      );
    });
    done.push(version);
  }
  return done;
}

/**
 * Copy every committed page of the SQLite write-ahead log into the database file and truncate the log to zero
 * bytes (`PRAGMA wal_checkpoint(TRUNCATE)`), so older page images that still hold deleted data leave the disk:
 * after a shopper's erasure (docs/privacy.md "What stays on disk"). Waits (busy_timeout) for readers of older
 * snapshots. No-op on PostgreSQL and for `:memory:`. Call outside a transaction.
 * @returns false when a reader or writer kept the checkpoint from finishing (the log is truncated at a later one).
 */
export function checkpointWal(db: Db): boolean {
  if (dialect(db) !== "sqlite" || db.memory) return true;
  const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number; checkpointed: number }[];
  return result ? result.busy === 0 : true;
}

/**
 * Run `fn` inside an IMMEDIATE transaction (takes the write lock up front, so concurrent
 * writers queue on busy_timeout instead of failing mid-way). Nested calls use savepoints.
 * Rolls back and rethrows when `fn` throws.
 */
export function transaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}

/**
 * Run the reads in `fn` in one read transaction (BEGIN DEFERRED … COMMIT): they all see one snapshot
 * of the database, e.g. a reviews page and its media, and each statement skips starting and ending its
 * own implicit transaction (~4.5 µs each). Inside another transaction it joins that one.
 * @returns `fn`'s result.
 */
export function readSnapshot<T>(db: Db, fn: () => T): T {
  if (db.inTransaction) return fn();
  let run = snapshotRunners.get(db);
  if (!run) {
    // One transaction function per connection: db.transaction() builds its wrappers on every call.
    run = db.transaction((body: () => unknown) => body());
    snapshotRunners.set(db, run);
  }
  return run.deferred(fn) as T;
}
const snapshotRunners = new WeakMap<Db, Database.Transaction<(body: () => unknown) => unknown>>();

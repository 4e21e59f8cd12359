/**
 * The data layer (ADR 0017): one async query library, Kysely, over either engine.
 *
 * - SQLite (the embedded default): Kysely's SQLite dialect over one better-sqlite3 connection. Kysely serialises
 *   that connection with a mutex, so a transaction keeps it from `BEGIN` to `COMMIT` and nothing interleaves.
 * - PostgreSQL (DATABASE_URL `postgres://…`): Kysely's PostgreSQL dialect over a `pg.Pool` (DATABASE_POOL_SIZE
 *   connections, default 10). Statements never block the event loop; writers on every node run side by side and
 *   take only the row locks their statements need (docs/deployment.md "What locks what").
 *
 * SQL is written once with Kysely's `sql` tag (its values become bound parameters in each engine's syntax) or
 * its query builder; where the engines differ (full-text search, JSON, upserts with engine functions), the code
 * branches on `dialect(db)` in the repo that needs it. Results read back alike on both engines: integers and
 * numerics as numbers, JSON as text (server/db/postgres-types.ts), constraint errors with the same `code`
 * (server/db/errors.ts).
 *
 * Transactions: `transaction(db, fn)` runs `fn` on one connection; every query that `fn` (and whatever it calls)
 * makes through these helpers on the same `db` joins it (AsyncLocalStorage), so repos need no transaction
 * argument. Nested calls are savepoints.
 */
import Database from "better-sqlite3";
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { Kysely, PostgresDialect, SqliteDialect, sql, type Compilable, type RawBuilder } from "kysely";
import pg from "pg";
import { dbError, isRetryableConflict } from "./errors.ts";
import { postgresTypes } from "./postgres-types.ts";
import { stableParameters } from "./stable-parameters.ts";

export { sql } from "kysely";
export type { RawBuilder } from "kysely";

/** Which engine a connection talks to. */
export type Dialect = "sqlite" | "postgres";

/** An open database as `openDatabase` returns it. */
export type Db = {
  /** The engine. */
  readonly dialect: Dialect;
  /** The Kysely instance over the pool or the SQLite connection. Query through the helpers below (they join the current transaction). */
  readonly kysely: Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- untyped schema: rows are typed per query
  /** SQLite only: the better-sqlite3 connection (pragmas, checkpoints, multi-statement DDL); null on PostgreSQL. */
  readonly sqlite: Database.Database | null;
  /** PostgreSQL only: the pool; null on SQLite. */
  readonly pool: pg.Pool | null;
  /** The SQLite path (or `:memory:`) or the PostgreSQL URL this was opened from. */
  readonly location: string;
  /** Write commits made through this handle so far (outermost write transactions and writes outside any). */
  readonly commits: number;
  /** Close the connection or pool. Idempotent. */
  close(): Promise<void>;
};

/** Whether `location` names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The engine behind `db`. */
export function dialect(db: Db): Dialect {
  return db.dialect;
}

/** Connections per node on PostgreSQL: env DATABASE_POOL_SIZE (1–200), default 10 (docs/deployment.md "Pool sizes"). */
export function poolSize(): number {
  const raw = process.env.DATABASE_POOL_SIZE;
  const value = raw === undefined || raw === "" ? 10 : Number(raw);
  if (!Number.isSafeInteger(value) || value < 1 || value > 200) throw new Error(`DATABASE_POOL_SIZE must be an integer from 1 to 200, got "${raw}"`);
  return value;
}

/**
 * Connect to the database at `location`: a SQLite file path (created if needed) or `:memory:`, or a PostgreSQL URL.
 * Does not migrate: `openDatabase` (server/db/database.ts) does both.
 * @param options.readonly SQLite: open read-only (read workers). @param options.poolSize PostgreSQL pool size.
 * @throws if the file cannot be opened or PostgreSQL cannot be reached (first query).
 */
export function connect(location: string, options: { readonly?: boolean; poolSize?: number } = {}): Db {
  if (isPostgresUrl(location)) {
    const pool = new pg.Pool({
      connectionString: location,
      max: options.poolSize ?? poolSize(),
      types: postgresTypes,
      application_name: "chorus",
    });
    // An idle client's error (the server restarted) must not crash the process; the pool replaces the client.
    pool.on("error", () => {});
    return handle("postgres", new Kysely({ dialect: new PostgresDialect({ pool }) }), null, pool, location);
  }
  if (location !== ":memory:") mkdirSync(dirname(location), { recursive: true });
  const sqlite = new Database(location, { readonly: options.readonly ?? false });
  if (!options.readonly) {
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
  }
  sqlite.pragma("foreign_keys = ON");
  // No waiting inside SQLite for another connection's write lock (it would stop this thread's event loop while the
  // lock holder may be this very thread, awaiting): a busy statement fails at once and is tried again after an
  // asynchronous pause (retryBusy), up to BUSY_WAIT_MS.
  sqlite.pragma("busy_timeout = 0");
  // Deleted content is overwritten with zeros (freed pages and the free space of changed pages), so an erased
  // shopper's data does not stay readable in the file (docs/privacy.md "What stays on disk"). Costs more writes
  // on deletes and updates only (docs/performance.md).
  sqlite.pragma("secure_delete = ON");
  sqlite.pragma("cache_size = -65536"); // 64 MiB page cache
  // Memory-mapped reads only when SQLITE_MMAP_BYTES asks for them (default off): after every commit by another
  // connection SQLite unmaps the whole file at the next read (docs/performance.md).
  if (location !== ":memory:") sqlite.pragma(`mmap_size = ${mmapBytes()}`);
  memoizePrepare(sqlite);
  return handle("sqlite", new Kysely({ dialect: new SqliteDialect({ database: sqlite }) }), sqlite, null, location);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Prettier keeps this comment on its own line
function handle(kind: Dialect, kysely: Kysely<any>, sqlite: Database.Database | null, pool: pg.Pool | null, location: string): Db {
  let closed: Promise<void> | null = null;
  const db: Db = {
    dialect: kind,
    kysely,
    sqlite,
    pool,
    location,
    commits: 0,
    close() {
      closed ??= kysely.destroy();
      return closed;
    },
  };
  return db;
}

/** The memory-map size for SQLite reads in bytes: env SQLITE_MMAP_BYTES (a non-negative integer), default 0 (off). */
function mmapBytes(): number {
  const raw = process.env.SQLITE_MMAP_BYTES;
  const value = raw === undefined || raw === "" ? 0 : Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`SQLITE_MMAP_BYTES must be a non-negative integer number of bytes, got "${raw}"`);
  return value;
}

/** Most prepared statements kept per SQLite connection (least recently used out). */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * Make better-sqlite3's `prepare(sql)` (which Kysely's SQLite driver calls for every query) return a cached
 * statement for SQL text it has prepared before: preparing (parse + plan) costs ~100 µs, several times a keyset
 * page read. Every statement is compiled with its parameters written `+?` (stable-parameters.ts): otherwise
 * SQLite compiles a statement with `col = ?` and an ORDER BY again on every run, for a new bound value.
 */
function memoizePrepare(sqlite: Database.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, Database.Statement>();
  sqlite.prepare = ((text: string) => {
    let stmt = cache.get(text);
    if (stmt) {
      cache.delete(text);
      if (stmt.reader) stmt.pluck(false).raw(false).expand(false);
    } else {
      stmt = prepare(stableParameters(text));
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    cache.set(text, stmt);
    return stmt;
  }) as Database.Database["prepare"];
}

// ---------------------------------------------------------------------------------------------------------------
// Queries

/** A query: `sql\`…\`` (Kysely's raw SQL tag) or a query-builder chain. */
export type Query<R> = RawBuilder<R> | Compilable<R>;

type Scope = { conn: Kysely<any>; mode: "write" | "read"; savepoints: number }; // eslint-disable-line @typescript-eslint/no-explicit-any
// One store per process, shared by every copy of this module: server code is loaded natively and bundled into the
// Remix build too (docs/ARCHITECTURE.md "State lives in `services`"), and a transaction begun by one copy must be
// joined by queries made through the other (else, on SQLite, they wait for the connection the transaction holds).
const scopes: AsyncLocalStorage<Map<Db, Scope>> = ((globalThis as { [key: symbol]: unknown })[Symbol.for("chorus.db.transaction-scopes")] ??= new AsyncLocalStorage<
  Map<Db, Scope>
>()) as AsyncLocalStorage<Map<Db, Scope>>;

/**
 * The Kysely instance to run a query on: the connection of the transaction this async context is in (on `db`),
 * else the pool (PostgreSQL) or the shared connection (SQLite). For query-builder chains: `executor(db).selectFrom(…)`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Prettier keeps this comment on its own line
export function executor(db: Db): Kysely<any> {
  return scopes.getStore()?.get(db)?.conn ?? db.kysely;
}

/** Whether this async context is inside a transaction (or read snapshot) on `db`. */
export function inTransaction(db: Db): boolean {
  return scopes.getStore()?.has(db) ?? false;
}

/** Longest time (ms) a SQLite statement or `BEGIN IMMEDIATE` is retried while another connection holds the write lock. */
export const BUSY_WAIT_MS = 5_000;

/**
 * Run `attempt` again while SQLite answers SQLITE_BUSY (another connection, another process or a thread of this
 * one, holds the write lock), after asynchronous pauses of 1 ms doubling to 50 ms, for up to BUSY_WAIT_MS; then
 * the last error. A busy statement changed nothing, so trying it again is safe. PostgreSQL: `attempt` once.
 */
async function retryBusy<T>(db: Db, attempt: () => Promise<T>): Promise<T> {
  if (db.dialect !== "sqlite") return attempt();
  const deadline = performance.now() + BUSY_WAIT_MS;
  for (let pauseMs = 1; ; pauseMs = Math.min(pauseMs * 2, 50)) {
    try {
      return await attempt();
    } catch (error) {
      if (!String((error as { code?: unknown } | null)?.code ?? "").startsWith("SQLITE_BUSY") || performance.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

async function execute<R>(db: Db, query: Query<R>): Promise<{ rows: R[]; numAffectedRows?: bigint; insertId?: bigint }> {
  const on = executor(db);
  try {
    const run = () => (isRaw(query) ? query.execute(on) : on.executeQuery(query.compile()));
    // Inside a transaction SQLite already holds the write lock (BEGIN IMMEDIATE); outside, a write may find it taken.
    const result = await (inTransaction(db) ? run() : retryBusy(db, run));
    if (result.numAffectedRows !== undefined && !inTransaction(db)) (db as { commits: number }).commits++;
    return result as { rows: R[]; numAffectedRows?: bigint; insertId?: bigint };
  } catch (error) {
    throw dbError(error);
  }
}

function isRaw<R>(query: Query<R>): query is RawBuilder<R> {
  return (query as { isRawBuilder?: unknown }).isRawBuilder === true;
}

/** Every row `query` returns. @throws DbError-coded errors (server/db/errors.ts). */
export async function all<R>(db: Db, query: Query<R>): Promise<R[]> {
  return (await execute(db, query)).rows;
}

/** The first row `query` returns, or undefined. */
export async function one<R>(db: Db, query: Query<R>): Promise<R | undefined> {
  return (await execute(db, query)).rows[0];
}

/** The first column of the first row, or undefined (SQLite's `.pluck().get()`). */
export async function value<T>(db: Db, query: Query<Record<string, T>>): Promise<T | undefined> {
  const row = (await execute(db, query)).rows[0];
  return row === undefined ? undefined : (Object.values(row)[0] as T);
}

/** The first column of every row (`.pluck().all()`). */
export async function values<T>(db: Db, query: Query<Record<string, T>>): Promise<T[]> {
  return (await execute(db, query)).rows.map((row) => Object.values(row as object)[0] as T);
}

/**
 * Run a write: `changes` is the number of rows it inserted, updated or deleted. With `RETURNING`, use `all`/`one`.
 */
export async function run(db: Db, query: Query<unknown>): Promise<{ changes: number }> {
  const result = await execute(db, query);
  return { changes: Number(result.numAffectedRows ?? 0n) };
}

/**
 * Run several statements of DDL or maintenance SQL without parameters (migrations, trigger installs).
 * SQLite: better-sqlite3's `exec`; PostgreSQL: one simple-protocol query. Joins the current transaction.
 */
export async function exec(db: Db, text: string): Promise<void> {
  const sqlite = db.sqlite;
  if (sqlite) {
    const direct = () => {
      try {
        sqlite.exec(text);
      } catch (error) {
        throw dbError(error);
      }
      return Promise.resolve();
    };
    // Outside a transaction, hold the connection (Kysely's mutex) so the statements do not land in another's.
    if (inTransaction(db)) return direct();
    return retryBusy(db, () => db.kysely.connection().execute(direct));
  }
  await execute(db, sql.raw(text));
}

// ---------------------------------------------------------------------------------------------------------------
// Transactions

/** How many times a PostgreSQL transaction that failed with a serialization failure or deadlock is run again. */
const CONFLICT_RETRIES = 5;

/**
 * Run `fn` in a write transaction on one connection and commit, or roll back and rethrow when it throws. Every
 * query made through this module's helpers on `db` inside `fn` joins it; a nested call is a savepoint.
 * SQLite: `BEGIN IMMEDIATE` (takes the write lock up front; Kysely's mutex keeps other queries out until commit).
 * PostgreSQL: READ COMMITTED by default, `isolation: "serializable"` on request; a serialization failure or
 * deadlock (SQLSTATE 40001, 40P01) runs `fn` again, up to 5 times, so `fn` must not have effects outside the
 * database. Read-then-write code takes the row locks it needs (`FOR UPDATE`, `ON CONFLICT`).
 */
export async function transaction<T>(db: Db, fn: () => Promise<T>, options: { isolation?: "serializable" } = {}): Promise<T> {
  const outer = scopes.getStore()?.get(db);
  if (outer) {
    if (outer.mode === "read") throw new Error("a write transaction cannot start inside a read snapshot");
    const name = `chorus_sp_${++outer.savepoints}`;
    await sql.raw(`SAVEPOINT ${name}`).execute(outer.conn);
    try {
      const result = await fn();
      await sql.raw(`RELEASE SAVEPOINT ${name}`).execute(outer.conn);
      return result;
    } catch (error) {
      await sql.raw(`ROLLBACK TO SAVEPOINT ${name}`).execute(outer.conn);
      await sql.raw(`RELEASE SAVEPOINT ${name}`).execute(outer.conn);
      throw error;
    }
  }
  const begin = db.dialect === "sqlite" ? "BEGIN IMMEDIATE" : options.isolation === "serializable" ? "BEGIN ISOLATION LEVEL SERIALIZABLE" : "BEGIN";
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await runIn(db, begin, "write", fn);
      (db as { commits: number }).commits++;
      return result;
    } catch (error) {
      if (db.dialect === "postgres" && attempt < CONFLICT_RETRIES && isRetryableConflict(error)) continue;
      throw error;
    }
  }
}

/**
 * Run the reads in `fn` against one snapshot of the database (a reviews page and its media agree).
 * SQLite: `BEGIN DEFERRED`; PostgreSQL: REPEATABLE READ, READ ONLY. Inside a transaction it joins that one.
 */
export async function readSnapshot<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (inTransaction(db)) return fn();
  return runIn(db, db.dialect === "sqlite" ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "read", fn);
}

async function runIn<T>(db: Db, begin: string, mode: Scope["mode"], fn: () => Promise<T>): Promise<T> {
  return db.kysely.connection().execute(async (conn) => {
    try {
      await retryBusy(db, () => sql.raw(begin).execute(conn));
    } catch (error) {
      throw dbError(error);
    }
    const map = new Map(scopes.getStore() ?? []);
    map.set(db, { conn, mode, savepoints: 0 });
    let result: T;
    try {
      result = await scopes.run(map, fn);
    } catch (error) {
      await sql
        .raw("ROLLBACK")
        .execute(conn)
        .catch(() => {});
      throw dbError(error);
    }
    try {
      await sql.raw("COMMIT").execute(conn);
    } catch (error) {
      await sql
        .raw("ROLLBACK")
        .execute(conn)
        .catch(() => {});
      throw dbError(error);
    }
    return result;
  });
}

/**
 * Copy every committed page of the SQLite write-ahead log into the database file and truncate the log to zero
 * bytes (`PRAGMA wal_checkpoint(TRUNCATE)`), so older page images that still hold deleted data leave the disk:
 * after a shopper's erasure (docs/privacy.md "What stays on disk"). No-op on PostgreSQL and for `:memory:`.
 * Call outside a transaction.
 * @returns false when a reader or writer kept the checkpoint from finishing (the log is truncated at a later one).
 */
export async function checkpointWal(db: Db): Promise<boolean> {
  const sqlite = db.sqlite;
  if (!sqlite || sqlite.memory) return true;
  const deadline = performance.now() + BUSY_WAIT_MS;
  for (let pauseMs = 1; ; pauseMs = Math.min(pauseMs * 2, 50)) {
    // Through the connection's mutex, so no transaction of this process is open on it.
    const done = await db.kysely.connection().execute(() => {
      const [result] = sqlite.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
      return Promise.resolve(result ? result.busy === 0 : true);
    });
    if (done || performance.now() > deadline) return done;
    // A reader of an older snapshot or another writer: wait for it without stopping the event loop.
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/**
 * ` FOR UPDATE` on PostgreSQL (lock the rows read until the transaction ends, so a read-then-write on one row is
 * exactly-once across nodes), nothing on SQLite (a write transaction there holds the database's write lock from
 * BEGIN IMMEDIATE). Append to a SELECT inside `transaction(db, …)`: `sql\`SELECT … WHERE id = ${id}${forUpdate(db)}\``.
 */
export function forUpdate(db: Db, options: { skipLocked?: boolean } = {}): RawBuilder<unknown> {
  if (db.dialect !== "postgres") return sql``;
  return options.skipLocked ? sql` FOR UPDATE SKIP LOCKED` : sql` FOR UPDATE`;
}

/**
 * Whether `db` is still open: false once `close()` ran (the SQLite connection closed, or the PostgreSQL pool
 * ending). For background jobs (mail sender, webhook deliveries) that must stop quietly once the server closes it.
 */
export function isOpen(db: Db): boolean {
  if (db.sqlite) return db.sqlite.open;
  return db.pool ? !db.pool.ending && !db.pool.ended : true;
}

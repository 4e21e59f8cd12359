/**
 * Fixed-window limits of the admin's account forms (sign-ups per address, reset requests per address and
 * per e-mail, invitations per store), with rate-limiter-flexible.
 *
 * - SQLite (embedded, one process): `RateLimiterMemory`, the counts live in the process.
 * - PostgreSQL (any number of nodes, issue #26 item 3): `RateLimiterPostgres` over the table
 *   `admin_rate_limits` (server/db/postgres/004-admin-rate-limits.sql), so every node counts against the
 *   same window. The library's one statement per consumption (`INSERT ... ON CONFLICT (key) DO UPDATE ...
 *   RETURNING points, expire`) is atomic, so concurrent requests on any nodes cannot all pass: at most
 *   `max` per window get through. Its queries run on our synchronous connection (`db`), through an object
 *   with the `query({ text, values })` method of a `pg` Pool, so no second connection pool is opened.
 *
 * A limiter is named (`name`: the key prefix of its rows) and numbered by configuration: configuring a
 * service again (tests, start-up) starts new counts, as a new in-memory limiter does. Nodes configured
 * alike at start-up share their counts.
 */
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { dialect, type Db } from "../db/database.ts";

/** A window rule: at most `max` points per `windowMs` milliseconds per key. */
export type WindowRule = { max: number; windowMs: number };

/** The PostgreSQL table of the shared counters (columns key, points, expire as rate-limiter-flexible reads them). */
export const RATE_LIMIT_TABLE = "admin_rate_limits";

/**
 * A `pg` Pool look-alike over our connection for RateLimiterPostgres: `query({ text, values })` with
 * `$n` placeholders resolves `{ rows, rowCount }`; a failure (e.g. the connection closed) rejects.
 */
function poolOver(db: Db) {
  return {
    query(q: { text: string; values?: unknown[] }): Promise<{ rows: unknown[]; rowCount: number }> {
      try {
        // `$n` → `?n` (numbered positional parameters), so the driver binds `values` as the library meant.
        const stmt = db.prepare(q.text.replace(/\$(\d+)/g, "?$1"));
        const values = q.values ?? [];
        if (stmt.reader) {
          const rows = stmt.all(...values);
          return Promise.resolve({ rows, rowCount: rows.length });
        }
        return Promise.resolve({ rows: [], rowCount: stmt.run(...values).changes });
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

/**
 * Make the limiters of one service over `db`: `limiter(name, rule)` returns a limiter of `rule.max` points
 * per `rule.windowMs` (rounded up to whole seconds) per key, in memory on SQLite, shared through
 * PostgreSQL on PostgreSQL. Each call for a name starts new counts (see the module doc).
 */
export function windowLimiters(db: Db) {
  const generations = new Map<string, number>();
  return function limiter(name: string, rule: WindowRule): RateLimiterAbstract {
    const duration = Math.max(1, Math.ceil(rule.windowMs / 1000));
    if (dialect(db) !== "postgres") return new RateLimiterMemory({ points: rule.max, duration });
    const generation = (generations.get(name) ?? 0) + 1;
    generations.set(name, generation);
    return new RateLimiterPostgres({
      storeClient: poolOver(db), storeType: "pool", tableName: RATE_LIMIT_TABLE, tableCreated: true,
      keyPrefix: `${name}.${generation}`, points: rule.max, duration,
    });
  };
}

/** Consume one point of `key`. @returns 0 when allowed, else the seconds until the window frees one. @throws a store's error. */
export async function consumePoint(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (result) {
    if (result instanceof RateLimiterRes) return Math.max(1, Math.ceil(result.msBeforeNext / 1000));
    throw result;
  }
}

/**
 * Fixed-window limits of the admin's account forms (sign-ups per address, reset requests per address and
 * per e-mail, invitations per store), with rate-limiter-flexible.
 *
 * - SQLite (embedded, one process): `RateLimiterMemory`, the counts live in the process.
 * - PostgreSQL (any number of nodes, issue #26 item 3): `RateLimiterPostgres` over the table
 *   `admin_rate_limits`, so every node counts against the same window. The library's one statement per
 *   consumption (`INSERT ... ON CONFLICT (key) DO UPDATE ... RETURNING points, expire`) is atomic, so concurrent
 *   requests on any nodes cannot all pass: at most `max` per window get through. Its queries run on the
 *   database's own `pg` Pool (`db.pool`), so no second pool is opened; they run outside any transaction.
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
 * Make the limiters of one service over `db`: `limiter(name, rule)` returns a limiter of `rule.max` points
 * per `rule.windowMs` (rounded up to whole seconds) per key, in memory on SQLite, shared through
 * PostgreSQL on PostgreSQL. Each call for a name starts new counts (see the module doc).
 */
export function windowLimiters(db: Db) {
  const generations = new Map<string, number>();
  return function limiter(name: string, rule: WindowRule): RateLimiterAbstract {
    const duration = Math.max(1, Math.ceil(rule.windowMs / 1000));
    if (dialect(db) !== "postgres" || !db.pool) return new RateLimiterMemory({ points: rule.max, duration });
    const generation = (generations.get(name) ?? 0) + 1;
    generations.set(name, generation);
    return new RateLimiterPostgres({
      storeClient: db.pool,
      storeType: "pool",
      tableName: RATE_LIMIT_TABLE,
      tableCreated: true,
      keyPrefix: `${name}.${generation}`,
      points: rule.max,
      duration,
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

/**
 * Which engine a connection talks to: "sqlite" (better-sqlite3, the embedded default) or "postgres"
 * (server/db/postgres.ts, when DATABASE_URL is a postgres:// URL). Data modules write one portable SQL text
 * where they can and branch on this where the engines differ (ADR 0015).
 */
import type Database from "better-sqlite3";

export type Dialect = "sqlite" | "postgres";

/**
 * A connection as `openDatabase` (database.ts) returns it: better-sqlite3's API, which the PostgreSQL adapter
 * (postgres.ts) implements too. Here rather than in database.ts so the modules database.ts uses can name it.
 */
export type Db = Database.Database;

/** The engine behind `db` (any connection `openDatabase` returned). */
export function dialect(db: object): Dialect {
  return (db as { dialect?: unknown }).dialect === "postgres" ? "postgres" : "sqlite";
}

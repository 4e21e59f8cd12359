/**
 * Which engine a connection talks to: "sqlite" (better-sqlite3, the embedded default) or "postgres"
 * (server/db/postgres.ts, when DATABASE_URL is a postgres:// URL). Data modules write one portable SQL text
 * where they can and branch on this where the engines differ (ADR 0015).
 */
export type Dialect = "sqlite" | "postgres";

/** The engine behind `db` (any connection `openDatabase` returned). */
export function dialect(db: object): Dialect {
  return (db as { dialect?: unknown }).dialect === "postgres" ? "postgres" : "sqlite";
}

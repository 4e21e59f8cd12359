/**
 * Database errors alike on both engines: a PostgreSQL error gets the `code` better-sqlite3 gives the same
 * failure (`SQLITE_CONSTRAINT_UNIQUE`, `_FOREIGNKEY`, `_CHECK`, `_NOTNULL`, and `_TRIGGER` for a trigger's
 * `RAISE EXCEPTION`), so callers test one code; `pgCode` keeps the SQLSTATE. SQLite errors pass through.
 */

/** SQLite error codes for PostgreSQL SQLSTATEs (PostgreSQL docs, Appendix A "Error Codes"). */
const SQLITE_CODES: Record<string, string> = {
  "23505": "SQLITE_CONSTRAINT_UNIQUE",
  "23503": "SQLITE_CONSTRAINT_FOREIGNKEY",
  "23514": "SQLITE_CONSTRAINT_CHECK",
  "23502": "SQLITE_CONSTRAINT_NOTNULL",
  P0001: "SQLITE_CONSTRAINT_TRIGGER",
};

/** An error from PostgreSQL: `code` as better-sqlite3 would name it (or `PG_<SQLSTATE>`), `pgCode` the SQLSTATE. */
export class PostgresError extends Error {
  readonly code: string;
  readonly pgCode: string | undefined;
  readonly constraint: string | undefined;
  constructor(error: { message: string; code?: string; constraint?: string }) {
    super(error.message);
    this.name = "PostgresError";
    this.pgCode = error.code;
    this.code = (error.code && SQLITE_CODES[error.code]) ?? `PG_${error.code ?? "ERROR"}`;
    this.constraint = error.constraint;
  }
}

/** `error` as callers see it: a `pg` DatabaseError becomes a PostgresError; anything else is returned as is. */
export function dbError(error: unknown): unknown {
  if (error instanceof PostgresError) return error;
  if (error instanceof Error && error.name === "error" && typeof (error as { code?: unknown }).code === "string" && "severity" in error) {
    return new PostgresError(error as unknown as { message: string; code: string; constraint?: string });
  }
  return error;
}

/** The `code` of a database error (`SQLITE_CONSTRAINT_UNIQUE`, …), or undefined. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Whether `error` is a unique-constraint violation on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = errorCode(error);
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/** A PostgreSQL serialization failure (40001) or deadlock (40P01): the transaction may simply be run again. */
export function isRetryableConflict(error: unknown): boolean {
  const pgCode = (error as { pgCode?: unknown } | null)?.pgCode;
  return pgCode === "40001" || pgCode === "40P01";
}

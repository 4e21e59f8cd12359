/**
 * Whether a database handle is still open, for the background jobs (mail sender, webhook deliveries, review
 * requests) that must stop quietly once the server closes the database.
 */
import type { Db } from "../db/database.ts";

/** False once `db.close()` ran (the SQLite connection closed, or the PostgreSQL pool ending). */
export function isOpen(db: Db): boolean {
  if (db.sqlite) return db.sqlite.open;
  return db.pool ? !db.pool.ending && !db.pool.ended : true;
}

/**
 * Opening the database: connect (server/db/query.ts), apply the pending migrations (server/db/migrate.ts) and
 * install the content-scope triggers (server/db/content-scopes.ts). Re-exports the query helpers, so data
 * modules import everything from here.
 */
import { installContentScopeTriggers } from "./content-scopes.ts";
import { migrate } from "./migrate.ts";
import { connect, type Db } from "./query.ts";

export * from "./query.ts";
export { isUniqueViolation, errorCode, PostgresError } from "./errors.ts";

/**
 * Open (creating if needed) the database at `location` (SQLite path, `:memory:`, or a PostgreSQL URL) and, unless
 * `readonly`, bring its schema to the newest version and install the content-scope triggers. Several processes
 * may start at once on one database: the migration lock makes the others wait, then find nothing to do.
 * @throws if the database cannot be reached or a migration fails (that migration is rolled back).
 */
export async function openDatabase(location: string, options: { readonly?: boolean; poolSize?: number } = {}): Promise<Db> {
  const db = connect(location, options);
  if (options.readonly) return db;
  try {
    await migrate(db, () => installContentScopeTriggers(db));
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

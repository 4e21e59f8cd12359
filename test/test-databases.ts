/**
 * Databases for tests that open their own by name and open them again (a restart, two processes or nodes on
 * one database): a set of test/database-location.ts `freshDatabase`s, one per name, in one temp directory: SQLite
 * files, or, with env CHORUS_TEST_POSTGRES_URL (`npm run test:postgres`), fresh migrated PostgreSQL databases, so
 * the same test runs on either engine.
 *
 *   const dbs = testDatabases("chorus-mail-");
 *   const location = await dbs.location("restart.sqlite");  // the same name gives the same database
 *   afterAll(() => dbs.removeAll());                        // deletes the files / drops the databases
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshDatabase, type FreshDatabase } from "./database-location.ts";

export type TestDatabases = {
  /** Whether the databases are PostgreSQL ones. */
  readonly postgres: boolean;
  /** The temp directory (media and other files of the test go there too). */
  readonly dir: string;
  /** The location (`databasePath` / DATABASE_URL) of database `name`, created on first use. */
  location(name: string): Promise<string>;
  /** Delete the directory and drop every PostgreSQL database made (close their connections first). */
  removeAll(): Promise<void>;
};

/** Databases named by the test, in a temp directory named `prefix…` (see the module comment). */
export function testDatabases(prefix: string): TestDatabases {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const made = new Map<string, Promise<FreshDatabase>>();
  return {
    postgres: Boolean(process.env.CHORUS_TEST_POSTGRES_URL),
    dir,
    async location(name) {
      let database = made.get(name);
      if (!database) made.set(name, (database = freshDatabase(dir, name)));
      return (await database).location;
    },
    async removeAll() {
      const databases = [...made.values()];
      made.clear();
      await Promise.all(databases.map(async (d) => (await d).drop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

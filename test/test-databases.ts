/**
 * Databases for tests that open their own by name and open them again (a restart, two processes or nodes on
 * one database): a SQLite file under a temp directory, or, with env CHORUS_TEST_POSTGRES_URL (an admin URL of a
 * throwaway cluster, test/postgres.ts; set by `npm run test:postgres`), a fresh migrated PostgreSQL database per
 * name, so the same test runs on either engine.
 *
 *   const dbs = testDatabases("chorus-mail-");
 *   const location = await dbs.location("restart.sqlite");  // the same name gives the same database
 *   afterAll(() => dbs.removeAll());                        // deletes the files / drops the databases
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase } from "./postgres.ts";

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
  const adminUrl = process.env.CHORUS_TEST_POSTGRES_URL;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const made = new Map<string, Promise<{ url: string; drop(): Promise<void> }>>();
  return {
    postgres: Boolean(adminUrl),
    dir,
    async location(name) {
      if (!adminUrl) return join(dir, name);
      let database = made.get(name);
      if (!database) made.set(name, (database = createTestDatabase(adminUrl)));
      return (await database).url;
    },
    async removeAll() {
      const databases = [...made.values()];
      made.clear();
      await Promise.all(databases.map(async (d) => (await d).drop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

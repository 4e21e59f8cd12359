/**
 * A fresh database for tests that build services (or run a CLI) without `startTestServer()`: a SQLite file in
 * `dir`, or, with env CHORUS_TEST_POSTGRES_URL (an admin URL: `npm run test:postgres`), a PostgreSQL database
 * copied from the migrated template (test/postgres.ts), dropped by `drop()`.
 *
 *   const db = await freshDatabase(dir);
 *   const services = createServices({ databasePath: db.location });
 *   await run(process.execPath, ["server/cli/users.ts", ...], { env: { ...process.env, ...db.env } });
 *   services.close(); await db.drop();
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase } from "./postgres.ts";

export type FreshDatabase = {
  /** What `createServices({ databasePath })` / `openDatabase` take: the SQLite path or the PostgreSQL URL. */
  location: string;
  /** The environment a child process (a CLI, the server) needs to open the same database. */
  env: { DATABASE_PATH: string } | { DATABASE_URL: string };
  /** Whether it is PostgreSQL. */
  postgres: boolean;
  /** Drop the PostgreSQL database (close every connection first); nothing for SQLite (the caller removes `dir`). */
  drop(): Promise<void>;
};

/** A fresh database named `name` (default `db.sqlite`) in `dir`, or a PostgreSQL one (see the module doc). */
export async function freshDatabase(dir: string, name = "db.sqlite"): Promise<FreshDatabase> {
  const adminUrl = process.env.CHORUS_TEST_POSTGRES_URL;
  if (!adminUrl) {
    const location = join(dir, name);
    return { location, env: { DATABASE_PATH: location }, postgres: false, drop: async () => {} };
  }
  const pg = await createTestDatabase(adminUrl);
  return { location: pg.url, env: { DATABASE_URL: pg.url }, postgres: true, drop: pg.drop };
}

/**
 * Fresh databases and temp directories for one test file, all removed by `cleanup()` (call it in `afterAll`):
 * `newDatabase()` is a `freshDatabase` in a new temp directory named `prefix…`, `tempDir()` a bare one.
 */
export function freshDatabases(prefix: string) {
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  const tempDir = (): string => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  return {
    tempDir,
    async newDatabase(): Promise<FreshDatabase> {
      const db = await freshDatabase(tempDir());
      drops.push(db.drop);
      return db;
    },
    async cleanup(): Promise<void> {
      for (const drop of drops.splice(0)) await drop();
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}

/**
 * The migrated SQLite template of a test run: vitest.config.ts's globalSetup migrates one empty SQLite file once per
 * run (about a second of migrations and content-scope triggers) and hands its path to the test workers in env
 * CHORUS_TEST_SQLITE_TEMPLATE; `startTestServer()` (test/server.ts) then starts each server on a byte copy of it
 * instead of migrating a new file. The PostgreSQL runs do the same with `CREATE DATABASE … TEMPLATE`
 * (test/postgres.ts `ensureTemplate`). Without the variable (a script, a bench, another config), nothing changes:
 * the server migrates its own file.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Vitest globalSetup: build the template, set env CHORUS_TEST_SQLITE_TEMPLATE; the teardown deletes it. */
export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "chorus-template-"));
  const file = join(dir, "template.sqlite");
  const { openDatabase } = await import("../server/db/database.ts");
  const db = await openDatabase(file);
  await db.close();
  // Closing the last connection checkpoints the WAL into the file: the file alone is the whole database.
  if (existsSync(`${file}-wal`)) throw new Error(`${file}-wal is left after closing the template: a copy of the file alone would miss commits`);
  process.env.CHORUS_TEST_SQLITE_TEMPLATE = file;
  return () => rmSync(dir, { recursive: true, force: true });
}

/**
 * Copy the run's migrated template (env CHORUS_TEST_SQLITE_TEMPLATE) to `target`, a SQLite path that does not exist
 * yet. @returns false (and copies nothing) when there is no template: the caller's database migrates itself.
 */
export function copySqliteTemplate(target: string): boolean {
  const template = process.env.CHORUS_TEST_SQLITE_TEMPLATE;
  if (!template || !existsSync(template)) return false;
  copyFileSync(template, target);
  return true;
}

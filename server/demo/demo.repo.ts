/**
 * The demo store's bookkeeping in `app_settings`: a "done" flag per seeder (`demo_seeded:<name>`, an ISO time)
 * and the progress of the demo import (`demo_import_progress`, JSON `{"done":12000,"total":23486}`, review rows of
 * the reviews file), which every node reads while one imports (server/demo/demo.ts `startDemoImport`).
 */
import { one, run, sql, value, type Db } from "../db/database.ts";

const PROGRESS_KEY = "demo_import_progress";

/** Whether the seeder `name` ran to the end on this database. */
export async function seederDone(db: Db, name: string): Promise<boolean> {
  return (await one(db, sql`SELECT 1 AS done FROM app_settings WHERE key = ${`demo_seeded:${name}`}`)) !== undefined;
}

/** Mark the seeder `name` done (an upsert of one key: idempotent, safe from any node). */
export async function markSeederDone(db: Db, name: string, nowMs = Date.now()): Promise<void> {
  const flag = `demo_seeded:${name}`;
  await run(db, sql`INSERT INTO app_settings (key, value) VALUES (${flag}, ${new Date(nowMs).toISOString()}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
}

/** The import progress as last written, or undefined (never written, or not JSON of two numbers). */
export async function readImportProgress(db: Db): Promise<{ done: number; total: number } | undefined> {
  const text = await value<string>(db, sql`SELECT value FROM app_settings WHERE key = ${PROGRESS_KEY}`);
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as { done?: unknown; total?: unknown };
    return typeof parsed.done === "number" && typeof parsed.total === "number" ? { done: parsed.done, total: parsed.total } : undefined;
  } catch {
    return undefined;
  }
}

/** Write the import progress (one key, last writer wins: only the node holding the demo seeding lock writes it). */
export async function writeImportProgress(db: Db, progress: { done: number; total: number }): Promise<void> {
  const text = JSON.stringify({ done: progress.done, total: progress.total });
  await run(db, sql`INSERT INTO app_settings (key, value) VALUES (${PROGRESS_KEY}, ${text}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
}
